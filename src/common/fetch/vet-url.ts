import { parseAllowedHost } from '../../lib/net/address-policy';
import { AssetFetchError } from './fetch-error';
import { type LookupFunction, resolveTarget, systemLookup } from './fetch-target';

/**
 * Applies the fetch policy to a URL without fetching it: scheme (https, or http for
 * FETCH_ALLOW_HOSTS), local names, and every address the host resolves to. For URLs the registry
 * will call later by other means (a forge instance's OAuth and API roots), checked when they are
 * entered. Throws an AssetFetchError whose message is safe to show.
 */
export async function vetUrl(
  url: string,
  options: { allowHosts: readonly string[]; lookup?: LookupFunction; timeoutMs?: number },
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AssetFetchError('refused-scheme', 'not a URL', { url });
  }
  await resolveTarget(
    parsed,
    { allowed: options.allowHosts.map(parseAllowedHost), lookup: options.lookup ?? systemLookup },
    AbortSignal.timeout(options.timeoutMs ?? 10_000),
  );
}
