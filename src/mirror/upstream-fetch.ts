import { AssetFetchError, fetchAndHashAsset, fetchBytes, fetchText, type GuardedFetchOptions } from '../common/fetch';
import { AssetTooLargeError, type UpstreamReader } from '../lib/mirror';

/** The injection token of the mirror's UpstreamReader. */
export const UPSTREAM_READER = Symbol('UPSTREAM_READER');

/** Small documents (a feed page, a release record, the key set, a manifest): 4 MiB at most. */
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * The mirror's transport: every read of upstream goes through the SSRF-safe fetcher
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch), so MIRROR_OF on a
 * private address works only for a host in FETCH_ALLOW_HOSTS.
 */
export function upstreamReader(allowHosts: readonly string[]): UpstreamReader {
  const base: GuardedFetchOptions = {
    maxBytes: MAX_DOCUMENT_BYTES,
    allowHosts,
    connectTimeoutMs: 10_000,
    idleTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
    maxRedirects: 5,
  };
  return {
    async json(url) {
      const { text } = await fetchText(url, { ...base, headers: { Accept: 'application/json' } });
      return JSON.parse(text) as unknown;
    },
    async bytes(url, maxBytes = MAX_DOCUMENT_BYTES) {
      return new Uint8Array((await fetchBytes(url, { ...base, maxBytes })).bytes);
    },
    async assetDigest(url, maxBytes) {
      try {
        const asset = await fetchAndHashAsset(url, { ...base, maxBytes, budgetBytes: maxBytes, totalTimeoutMs: 15 * 60_000 });
        return { sha256: asset.sha256 ?? '', size: asset.size };
      } catch (error) {
        if (error instanceof AssetFetchError && error.reason === 'too-large') throw new AssetTooLargeError(url, maxBytes);
        throw error;
      }
    },
  };
}
