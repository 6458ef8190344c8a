import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { isDatabaseUnavailable } from './database-unavailable';
import { DomainError } from './domain-error';
import { HtmlErrorPages } from './html-error-pages';
import { RouteTable } from '../http/route-table';
import {
  internalProblem,
  type Problem,
  problemFromBodyParserError,
  problemFromDomainError,
  problemFromHttpException,
  problemType,
} from './problem';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  /** The byte limit a 413 from the body parser exceeded. */
  limit?: number;
}

/** The database is down or restarting: the client may retry, and the log gets a warning, not a stack. */
function databaseUnavailable(): DomainError {
  return new DomainError('unavailable', 'database-unavailable', 'the database cannot be reached right now; try again shortly', undefined, {
    retryAfter: 5,
  });
}

/** Every error leaves the process as RFC 9457 problem+json; nothing internal leaks. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly routes: RouteTable,
    private readonly htmlPages: HtmlErrorPages,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const exception = isDatabaseUnavailable(thrown) ? databaseUnavailable() : thrown;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception, request, response);
    if (exception instanceof DomainError && problem.status >= 500) {
      // Expected and explained (an asset that is gone, a forge that refuses): the access line
      // carries it as one warning, without a stack.
      response.locals.expectedProblem = { code: exception.code, detail: exception.detail };
    } else if (problem.status >= 500) {
      this.logger.error(`${request.method} ${request.path} failed: ${(exception as Error)?.stack ?? String(exception)}`);
    }
    if (response.headersSent) return;
    // A browser asking for an address nothing answers reads the site's 404 page instead.
    if (problem.status === 404 && this.htmlPages.wants(request)) {
      this.htmlPages.send(request, response, 404).catch((error: unknown) => {
        this.logger.error(`the 404 page could not be rendered: ${error instanceof Error ? error.message : String(error)}`);
        if (!response.headersSent)
          response.status(404).type('application/problem+json').setHeader('Cache-Control', 'no-store').send(JSON.stringify(problem));
      });
      return;
    }
    // A refusal that says when to come back (a busy ingest slot) says it in the header too.
    if (exception instanceof DomainError && typeof exception.extensions.retryAfter === 'number')
      response.setHeader('Retry-After', String(exception.extensions.retryAfter));
    response.status(problem.status).type('application/problem+json').setHeader('Cache-Control', 'no-store');
    response.send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown, request: Request, response: Response): Problem {
    const baseUrl = this.config.baseUrl;
    if (exception instanceof DomainError) return problemFromDomainError(exception, baseUrl);
    if (exception instanceof HttpException) {
      if (exception.getStatus() === 404) {
        const allowed = this.routes.methodsFor(request.path);
        if (allowed.length && !allowed.includes(request.method)) {
          response.setHeader('Allow', allowed.join(', '));
          return {
            type: problemType(baseUrl, 'method-not-allowed'),
            title: 'Method Not Allowed',
            status: 405,
            detail: `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`,
          };
        }
      }
      return problemFromHttpException(exception, baseUrl);
    }
    const parserError = exception as BodyParserError;
    const status = parserError?.status ?? parserError?.statusCode;
    if (parserError?.expose && typeof status === 'number' && status >= 400 && status < 500) {
      return problemFromBodyParserError(parserError.type, status, baseUrl, parserError.limit);
    }
    return internalProblem(baseUrl);
  }
}
