import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { escapeHtml } from './html';

/**
 * A page whose API calls failed (the database down, a bug) still answers HTML, not problem+json:
 * a plain document with no context, since building one may be what failed.
 */
@Catch()
export class WebErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Web');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const unavailable = error instanceof TypeError && /fetch failed/.test(error.message);
    this.logger.error(`a web page could not be rendered: ${error instanceof Error ? error.message : String(error)}`);
    const status = unavailable ? 503 : 500;
    const text = unavailable
      ? 'The registry cannot answer right now. Try again in a moment.'
      : 'Something went wrong while building this page.';
    response
      .status(status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status}</title></head><body><main><h1>${status}</h1><p>${escapeHtml(text)}</p><p><a href="/">Home</a></p></main></body></html>`,
      );
  }
}
