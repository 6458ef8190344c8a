import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { notModified } from '../../common/http/conditional-get';
import { responseCacheKey } from './cache-key';
import type { ResponseCache } from './response-cache';
import { type CachedResponse, REPLAYED_HEADERS } from './stores/store';

function header(res: Response, name: string): string | null {
  const value = res.getHeader(name);
  return value === undefined ? null : String(value);
}

/**
 * Answers anonymous catalogue reads from the response cache before Nest routes them, and stores
 * each shareable 200 answer it lets through (`mayShare`). A hit replays the stored bytes and
 * headers, ETag included, so `If-None-Match` gets a 304 either way.
 */
export function responseCacheMiddleware(
  cache: ResponseCache,
  logHit: (req: Request, res: Response, startedAt: bigint) => void = () => undefined,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    const key = cache.enabled ? responseCacheKey(req) : null;
    if (key === null) return next();
    void cache.lookup(key).then(
      (found) => {
        if (found?.entry) {
          replay(req, res, found.entry);
          logHit(req, res, startedAt);
          return;
        }
        if (found) captureAnswer(cache, key, found.generation, res);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

/** Writes a stored answer straight to the socket: the hit path is the catalogue's hot path. */
export function replay(req: IncomingMessage, res: ServerResponse, entry: CachedResponse): void {
  const headers: Record<string, string> = {
    'Content-Type': entry.contentType,
    'Cache-Control': entry.cacheControl,
    ETag: entry.etag,
    'X-Cache': 'hit',
  };
  if (entry.vary) headers.Vary = entry.vary;
  if (entry.headers) Object.assign(headers, entry.headers);
  if (notModified(req.headers, { etag: entry.etag })) {
    res.writeHead(304, headers).end();
    return;
  }
  headers['Content-Length'] = String(Buffer.byteLength(entry.body));
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : entry.body);
}

/**
 * Whether a shared cache may keep this answer: not one its route marked `private` or `no-store`
 * (RFC 9111: directive names in any letter case, `private` with or without field names), nor one
 * that sets a cookie, which was meant for one client. Decided here, whatever route answered.
 */
export function mayShare(cacheControl: string | null, setsCookie: boolean): boolean {
  if (setsCookie) return false;
  if (cacheControl === null) return true;
  return !cacheControl.split(',').some((directive) => {
    const name = directive.split('=')[0].trim().toLowerCase();
    return name === 'private' || name === 'no-store';
  });
}

/** The REPLAYED_HEADERS an answer set, as a stored entry keeps them (nothing when it set none). */
export function replayedHeaders(read: (name: string) => string | null | undefined): Pick<CachedResponse, 'headers'> {
  let headers: Record<string, string> | undefined;
  for (const name of REPLAYED_HEADERS) {
    const value = read(name);
    if (value) (headers ??= {})[name] = value;
  }
  return headers ? { headers } : {};
}

function captureAnswer(cache: ResponseCache, key: string, generation: string | null, res: Response): void {
  res.setHeader('X-Cache', 'miss');
  const send = res.send;
  res.send = function sendAndRemember(this: Response, body?: unknown) {
    res.send = send;
    const cacheable = res.statusCode === 200 && typeof body === 'string';
    const result = send.call(this, body);
    const etag = header(res, 'ETag');
    const contentType = header(res, 'Content-Type');
    const cacheControl = header(res, 'Cache-Control');
    if (cacheable && etag && contentType && mayShare(cacheControl, res.hasHeader('Set-Cookie'))) {
      void cache.remember(key, generation, {
        body: body as string,
        etag,
        contentType,
        cacheControl: cacheControl ?? 'no-cache',
        vary: header(res, 'Vary'),
        ...replayedHeaders((name) => header(res, name)),
      });
    }
    return result;
  };
}
