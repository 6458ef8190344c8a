import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { tap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../../auth/auth-context';

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
        http.getResponse<Response>().setHeader('Cache-Control', signedIn ? 'private, no-store' : 'public, max-age=60');
      }),
    );
  }
}
