import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';

export interface FetchedText {
  url: string;
  finalUrl: string;
  contentType: string;
  /** The body decoded as UTF-8 (a leading BOM dropped, invalid sequences replaced). */
  text: string;
}

/**
 * Fetches a small text document (a README, a manifest at a git ref) under the same policy as
 * assets. It is buffered, so `maxBytes` is the memory bound: past it the fetch fails 'too-large'.
 */
export async function fetchText(url: string, options: GuardedFetchOptions): Promise<FetchedText> {
  const chunks: Buffer[] = [];
  const body = await guardedFetch(url, options, (chunk) => {
    chunks.push(chunk);
  });
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks, body.size));
  return { url: body.url, finalUrl: body.finalUrl, contentType: body.contentType, text };
}
