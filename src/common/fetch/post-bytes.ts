import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';

export interface PostedBytes {
  url: string;
  /** Always 2xx: any other status is an AssetFetchError with reason 'status' and its `status`. */
  status: number;
  contentType: string;
}

/**
 * POSTs `body` to `url` under the fetch policy (https, or http and private addresses only for the
 * hosts in `allowHosts`), following no redirect: a 3xx is a 'too-many-redirects' failure, a
 * non-2xx a 'status' failure. The answer is read to its end (up to `maxBytes`) and thrown away:
 * its bytes are the receiver's, and whoever asked for the POST (a subscription's owner, say) is
 * told the status only, so a URL aimed at an internal service reads nothing back.
 */
export async function postBytes(
  url: string,
  body: Buffer,
  headers: Readonly<Record<string, string>>,
  options: Omit<GuardedFetchOptions, 'body' | 'headers' | 'maxRedirects'>,
): Promise<PostedBytes> {
  const answer = await guardedFetch(url, { ...options, maxRedirects: 0, headers, body }, () => undefined);
  return { url: answer.url, status: answer.status, contentType: answer.contentType };
}
