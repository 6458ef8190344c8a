import { createHash, Hash } from 'node:crypto';
import { AssetFetchError } from './fetch-error';
import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';

export interface AssetFetchOptions extends GuardedFetchOptions {
  /** Hash budget: an asset whose streamed bytes exceed it is sized but not hashed. */
  budgetBytes: number;
}

export interface FetchedAsset {
  url: string;
  finalUrl: string;
  /** Bytes actually streamed; a declared Content-Length is never trusted for it. */
  size: number;
  /** Hex SHA-256 of the body, or null when the asset was over the hash budget. */
  sha256: string | null;
  hashed: boolean;
  /** The server's Content-Type as sent, or application/octet-stream when it sent none. */
  contentType: string;
}

/**
 * Fetches one asset and hashes it as it streams: memory stays flat whatever its size. Past the
 * budget hashing stops but counting goes on to the end (up to maxBytes) so the true size is known.
 */
export async function fetchAndHashAsset(url: string, options: AssetFetchOptions): Promise<FetchedAsset> {
  const digest = new BudgetedDigest(options.budgetBytes);
  const body = await guardedFetch(url, options, (chunk, bytesSoFar) => digest.add(chunk, bytesSoFar));
  const sha256 = digest.hex();
  // The status is always 2xx here; an asset's record keeps what it always had.
  const { status: _status, ...fetched } = body;
  return { ...fetched, sha256, hashed: sha256 !== null };
}

/** SHA-256 of a stream that gives up, for good, once the stream passes the budget. */
class BudgetedDigest {
  private hash: Hash | null = createHash('sha256');

  constructor(private readonly budgetBytes: number) {}

  add(chunk: Buffer, bytesSoFar: number): void {
    if (this.hash === null) return;
    if (bytesSoFar > this.budgetBytes) this.hash = null;
    else this.hash.update(chunk);
  }

  hex(): string | null {
    return this.hash === null ? null : this.hash.digest('hex');
  }
}

export interface NamedAssetUrl {
  name: string;
  url: string;
}

export interface FetchedReleaseAsset<T extends NamedAssetUrl> {
  asset: T;
  fetched: FetchedAsset;
}

/**
 * Fetches a release's assets, `concurrency` at a time, results in input order. The first failure
 * cancels the fetches still running and rejects with that failure, naming the asset; it waits for
 * the cancelled ones to let go of their sockets first.
 */
export async function fetchAndHashAssets<T extends NamedAssetUrl>(
  assets: readonly T[],
  options: AssetFetchOptions & { concurrency: number },
): Promise<FetchedReleaseAsset<T>[]> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }
  const group = new AbortController();
  const stopGroup = () => group.abort();
  if (options.signal?.aborted) stopGroup();
  options.signal?.addEventListener('abort', stopGroup, { once: true });
  const results: FetchedReleaseAsset<T>[] = new Array(assets.length);
  let next = 0;
  let failure: { error: unknown } | undefined;

  const worker = async () => {
    while (next < assets.length && !group.signal.aborted) {
      const asset = assets[next];
      const index = next++;
      try {
        results[index] = { asset, fetched: await fetchAndHashAsset(asset.url, { ...options, signal: group.signal }) };
      } catch (error) {
        failure ??= { error: error instanceof AssetFetchError ? error.forAsset(asset.name) : error };
        group.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, assets.length) }, worker));
  } finally {
    options.signal?.removeEventListener('abort', stopGroup);
  }
  if (failure) throw failure.error;
  if (group.signal.aborted) throw new AssetFetchError('aborted', 'fetching the release assets was cancelled', { url: '' });
  return results;
}
