import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { isCatalogueWrite } from './cache-key';
import { ResponseCache } from './response-cache';

/**
 * The template of the route the router chose (`/api/publish/:slug/yank`), not the path as the
 * client spelled it: `/API/Publish/x/yank/` or `/api/publish/%78/yank` reach the same handler and
 * must be classified as it is, whatever letter case, trailing slash or escapes the router forgives.
 */
function routeTemplate(request: Request): string {
  const route = (request as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : request.path;
}

/**
 * Empties the response cache after every successful write through the HTTP surface (publish,
 * yank, admin actions, kinds, settings, ownership), before the answer goes out: a client that
 * reads right after its write sees it, on any instance. Background changes (webhook ingest,
 * re-signing) invalidate where they happen.
 */
@Injectable()
export class CatalogueWriteInterceptor implements NestInterceptor {
  constructor(private readonly cache: ResponseCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    if (!isCatalogueWrite(request.method, routeTemplate(request))) return next.handle();
    return next.handle().pipe(mergeMap((result: unknown) => from(this.cache.invalidate().then(() => result))));
  }
}
