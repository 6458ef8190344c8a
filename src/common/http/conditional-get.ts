import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import fresh from 'fresh';

/** The validators an answer carries. */
export interface AnswerValidators extends fresh.Headers {
  etag?: string;
  'last-modified'?: string;
}

/**
 * Whether a GET or HEAD with these headers is answered 304 for an answer with these validators:
 * RFC 9110 13.1 (`If-None-Match` by weak comparison, else `If-Modified-Since`), the one rule of
 * every path (the catalogue lane, a response cache hit, Express's `req.fresh`).
 *
 * The `fresh` package alone also answers "stale" to any request carrying `Cache-Control:
 * no-cache` (an RFC 2616 reading for reloads). That directive asks caches to revalidate with the
 * origin; it does not switch off the origin's own precondition. And `fetch()` adds it to every
 * request that carries `If-None-Match`: such a conditional GET got 200 from a miss or a caller
 * with credentials, and 304 from a cache hit, so right after a write (cache emptied) a client's
 * revalidation with the ETag it had just been given came back 200.
 */
export function notModified(requestHeaders: IncomingHttpHeaders, validators: AnswerValidators): boolean {
  if (requestHeaders['cache-control'] === undefined) return fresh(requestHeaders, validators);
  const { 'cache-control': _reload, ...conditions } = requestHeaders;
  return fresh(conditions, validators);
}

/**
 * Express's `req.fresh` (what `res.send` answers 304 by) with the rule the catalogue lane and the
 * response cache use (common/http/conditional-get): the same conditional GET gets the same status
 * whichever path answers it. As Express's own getter otherwise: GET and HEAD, a 2xx or 304 answer.
 */
export function answerPreconditionsByOneRule(request: Request): void {
  Object.defineProperty(request, 'fresh', {
    configurable: true,
    get(this: Request): boolean {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const res = this.res!;
      const status = res.statusCode;
      if ((status < 200 || status >= 300) && status !== 304) return false;
      const etag = res.get('ETag');
      const lastModified = res.get('Last-Modified');
      return notModified(this.headers, { ...(etag ? { etag } : {}), ...(lastModified ? { 'last-modified': lastModified } : {}) });
    },
  });
}
