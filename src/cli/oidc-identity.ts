import type { CliIo } from './command';

/** The environment variable GitLab CI's `id_tokens` puts the registry's ID token in, unless told another. */
export const DEFAULT_ID_TOKEN_ENV = 'REGISTRY_ID_TOKEN';

/** Where this CI job's OIDC ID token comes from (trusted publishing), or null outside such a job. */
export type IdTokenSource = { kind: 'variable'; name: string } | { kind: 'github-actions' };

export function idTokenSource(env: CliIo['env'], variable: string): IdTokenSource | null {
  if (env[variable]) return { kind: 'variable', name: variable };
  if (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) return { kind: 'github-actions' };
  return null;
}

export function describeSource(source: IdTokenSource): string {
  return source.kind === 'variable' ? `the ID token in ${source.name}` : 'a GitHub Actions ID token';
}

/** Thrown when the ID token could not be obtained; the message is safe to print (no token in it). */
export class IdTokenUnavailable extends Error {}

/**
 * The ID token itself: read from the variable (GitLab CI's `id_tokens`, which fixes the audience in
 * the pipeline), or requested from GitHub Actions for `audience` (the job needs `id-token: write`).
 */
export async function readIdToken(source: IdTokenSource, env: CliIo['env'], audience: string, fetchFn: typeof fetch): Promise<string> {
  if (source.kind === 'variable') return env[source.name]!;
  let url: URL;
  try {
    url = new URL(env.ACTIONS_ID_TOKEN_REQUEST_URL!);
  } catch {
    throw new IdTokenUnavailable('ACTIONS_ID_TOKEN_REQUEST_URL is not a URL');
  }
  url.searchParams.set('audience', audience);
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: { Authorization: `Bearer ${env.ACTIONS_ID_TOKEN_REQUEST_TOKEN}`, Accept: 'application/json' },
    });
  } catch (error) {
    throw new IdTokenUnavailable(`requesting the GitHub Actions ID token failed: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => null)) as { value?: unknown } | null;
  if (!response.ok || typeof body?.value !== 'string') {
    throw new IdTokenUnavailable(
      `GitHub Actions answered the ID token request with HTTP ${response.status}; does the job have \`permissions: id-token: write\`?`,
    );
  }
  return body.value;
}
