import { fetchBytes } from '../../common/fetch';

/** The injection token of the mirror's UpstreamLogTransport. */
export const UPSTREAM_LOG_TRANSPORT = Symbol('UPSTREAM_LOG_TRANSPORT');

/** Upstream's answer: a 2xx, or a 4xx refusal with its (problem) body, to pass on. */
export interface UpstreamLogAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One GET of upstream's log; throws an AssetFetchError (reason says why) for anything but a 2xx
 * or 4xx answer of at most `maxBytes`.
 */
export type UpstreamLogTransport = (url: string, maxBytes: number, accept: string) => Promise<UpstreamLogAnswer>;

/**
 * Through the SSRF-safe fetcher
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch), like every other read
 * of upstream: MIRROR_OF on a private address works only for a host in FETCH_ALLOW_HOSTS. One
 * deadline for the whole read.
 */
export function upstreamLogTransport(allowHosts: readonly string[], timeoutMs: number): UpstreamLogTransport {
  return async (url, maxBytes, accept) => {
    const answer = await fetchBytes(url, {
      maxBytes,
      allowHosts,
      connectTimeoutMs: Math.ceil(timeoutMs / 2),
      idleTimeoutMs: timeoutMs,
      totalTimeoutMs: timeoutMs,
      maxRedirects: 3,
      readClientErrors: true,
      headers: { Accept: accept },
    });
    return { status: answer.status, contentType: answer.contentType, body: answer.bytes };
  };
}
