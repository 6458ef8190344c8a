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
 */
export async function fetchBytes(url: string, options: GuardedFetchOptions, onChunk?: (chunk: Buffer) => void): Promise<FetchedBytes> {
  const chunks: Buffer[] = [];
  const body = await guardedFetch(url, options, (chunk) => {
    onChunk?.(chunk);
    chunks.push(chunk);
  });
  return { url: body.url, finalUrl: body.finalUrl, contentType: body.contentType, status: body.status, bytes: Buffer.concat(chunks, body.size) };
}
