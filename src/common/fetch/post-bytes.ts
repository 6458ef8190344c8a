import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';

export interface PostedBytes {
  url: string;
  /** Always 2xx: any other status is an AssetFetchError with reason 'status' and its `status`. */
  status: number;
  contentType: string;
  /** The first bytes of the answer (at most `keepBytes`), for a short log entry. */
  snippet: Buffer;
}

/**
 * POSTs `body` to `url` under the fetch policy (https, or http and private addresses only for
 * FETCH_ALLOW_HOSTS), following no redirect: a 3xx is a 'too-many-redirects' failure, a non-2xx
 * a 'status' failure. The answer is read up to `maxBytes`; only its first `keepBytes` are kept.
 */
export async function postBytes(url: string, body: Buffer, headers: Readonly<Record<string, string>>, options: Omit<GuardedFetchOptions, 'body' | 'headers' | 'maxRedirects'>, keepBytes = 200): Promise<PostedBytes> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const answer = await guardedFetch(url, { ...options, maxRedirects: 0, headers, body }, (chunk) => {
    if (keptBytes >= keepBytes) return;
    const piece = chunk.subarray(0, keepBytes - keptBytes);
    kept.push(piece);
    keptBytes += piece.length;
  });
  return { url: answer.url, status: answer.status, contentType: answer.contentType, snippet: Buffer.concat(kept) };
}
