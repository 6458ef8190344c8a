import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import type { RenderedPage } from './web-renderer';

/**
 * Sends a handler's RenderedPage as HTML with its status (or its redirect). Pages are per
 * visitor (their language, their session), so shared caches must not keep them.
 */
@Injectable()
export class WebPageInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<RenderedPage>): Observable<string> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((page) => {
        response.setHeader('Cache-Control', 'private, no-cache');
        response.setHeader('Vary', 'Cookie, Accept-Language');
        if (page.redirect) {
          response.status(page.status).setHeader('Location', page.redirect);
          return '';
        }
        response.status(page.status).setHeader('Content-Type', 'text/html; charset=utf-8');
        return page.body;
      }),
    );
  }
}
