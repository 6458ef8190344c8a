import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';

export interface FetchedBytes {
  url: string;
  finalUrl: string;
  contentType: string;
  /** 2xx, or 4xx when the options ask for client errors' bodies (`readClientErrors`). */
  status: number;
  bytes: Buffer;
}

/**
 * Fetches a small binary body (an icon, a screenshot, a README image) under the same policy as
 * assets. It is buffered, so `maxBytes` is the memory bound: past it the fetch fails 'too-large'.
 * `onChunk` sees each chunk as it arrives, before it is kept (a caller accounting the bytes held
 * aborts `signal` to stop).
 *
 * A body whose Content-Length is declared (and within `maxBytes`) is written as it arrives into
 * one buffer of that length, from `allocate` (a caller may hand out a buffer it reuses; the bytes
 * returned are then a view of it): kept as a list of chunks and joined at the end, it was held
 * twice while joining, and the chunks until the next collection. Only an undeclared length is joined.
 */
export async function fetchBytes(
  url: string,
  options: GuardedFetchOptions,
  onChunk?: (chunk: Buffer) => void,
  allocate: (length: number) => Buffer = (length) => Buffer.allocUnsafe(length),
): Promise<FetchedBytes> {
  const kept: { whole: Buffer | null; filled: number; chunks: Buffer[] } = { whole: null, filled: 0, chunks: [] };
  const onBodyLength = (declared: number) => {
    options.onBodyLength?.(declared);
    // A caller that refused the length aborted: nothing is read, so nothing is allocated.
    if (declared <= options.maxBytes && !options.signal?.aborted) kept.whole = allocate(declared);
  };
  const body = await guardedFetch(url, { ...options, onBodyLength }, (chunk) => {
    onChunk?.(chunk);
    if (kept.whole && kept.filled + chunk.length <= kept.whole.length) kept.filled += chunk.copy(kept.whole, kept.filled);
    else {
      // More than declared (never expected: the HTTP parser stops at the declared length): joined as an undeclared length is.
      if (kept.whole) kept.chunks.push(kept.whole.subarray(0, kept.filled));
      kept.whole = null;
      kept.chunks.push(chunk);
    }
  });
  const bytes = kept.whole ? kept.whole.subarray(0, kept.filled) : Buffer.concat(kept.chunks, body.size);
  return { url: body.url, finalUrl: body.finalUrl, contentType: body.contentType, status: body.status, bytes };
}
