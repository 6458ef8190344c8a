import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { tap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from './auth-context';

/** How long shared caches may keep an anonymous answer of such a read. */
export const PUBLIC_ANSWER_CACHE_CONTROL = 'public, max-age=60';

/**
 * For reads whose answer depends on who asks (an admin sees more): shared caches may keep the
 * anonymous answer for a minute; a signed-in caller's answer is never stored.
 */
@Injectable()
export class CacheByCallerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next.handle().pipe(
      tap(() => {
        const signedIn = http.getRequest<AuthenticatedRequest>().auth !== undefined;
        http.getResponse<Response>().setHeader('Cache-Control', signedIn ? 'private, no-store' : PUBLIC_ANSWER_CACHE_CONTROL);
      }),
    );
  }
}
