import { fetchText, type GuardedFetchOptions } from '../../common/fetch';
import { type ForgeLocation, repositoryApiUrl } from './urls';
import { forgeAdapter } from './adapters';

/**
 * A repository's record from its forge's API, as JSON, read under the fetch policy `options`,
 * with `accessToken` (a user's or the instance's) when given. Throws the fetch's AssetFetchError,
 * or a SyntaxError for an answer that is not JSON; what a failure means is the caller's to say.
 */
export async function readRepositoryDocument(
  { forge, repoPath }: ForgeLocation,
  accessToken: string | undefined,
  options: GuardedFetchOptions,
): Promise<unknown> {
  const authorization: Record<string, string> = accessToken ? { Authorization: forgeAdapter(forge.type).authorization(accessToken) } : {};
  const fetched = await fetchText(repositoryApiUrl(forge, repoPath), {
    ...options,
    headers: { Accept: 'application/json', ...authorization },
  });
  return JSON.parse(fetched.text);
}
