import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE } from '../auth/session-tokens';
import { responseCacheKey } from './cache-key';
import type { ResponseCache } from './response-cache';

function header(res: Response, name: string): string | null {
  const value = res.getHeader(name);
  return value === undefined ? null : String(value);
}

/**
 * Answers anonymous catalogue reads from the response cache before Nest routes them, and stores
 * each 200 answer it lets through. A hit replays the stored bytes and headers, ETag included,
 * so `If-None-Match` gets a 304 either way.
 */
export function responseCacheMiddleware(cache: ResponseCache) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = cache.enabled ? responseCacheKey({ method: req.method, url: req.originalUrl, headers: req.headers }, SESSION_COOKIE) : null;
    if (key === null) return next();
    void cache.lookup(key).then(
      (found) => {
        if (found?.entry) {
          const { entry } = found;
          res.setHeader('Content-Type', entry.contentType);
          res.setHeader('Cache-Control', entry.cacheControl);
          if (entry.vary) res.setHeader('Vary', entry.vary);
          res.setHeader('ETag', entry.etag);
          res.setHeader('X-Cache', 'hit');
          res.status(200).send(entry.body);
          return;
        }
        if (found) captureAnswer(cache, key, found.generation, res);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

function captureAnswer(cache: ResponseCache, key: string, generation: string, res: Response): void {
  res.setHeader('X-Cache', 'miss');
  const send = res.send;
  res.send = function sendAndRemember(this: Response, body?: unknown) {
    res.send = send;
    const cacheable = res.statusCode === 200 && typeof body === 'string';
    const result = send.call(this, body);
    const etag = header(res, 'ETag');
    const contentType = header(res, 'Content-Type');
    if (cacheable && etag && contentType) {
      void cache.remember(key, generation, { body: body as string, etag, contentType, cacheControl: header(res, 'Cache-Control') ?? 'no-cache', vary: header(res, 'Vary') });
    }
    return result;
  };
}
