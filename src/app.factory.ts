import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { ProblemDetailsFilter } from './common/errors/problem.filter';
import { REQUEST_VALIDATOR_OPTIONS, requestValidationError } from './common/errors/validation';
import { JSON_BODY_LIMIT_BYTES, jsonBodiesOnly } from './common/http/json-only';
import { RouteTable } from './common/http/route-table';
import { compactAccessLog, httpLogger, PinoLoggerService } from './common/logging/logger';
import { requestContext } from './common/logging/request-context';
import type { AppConfig } from './config/config.types';
import type { DatabaseHandle } from './database/database-handle';
import { buildOpenApiDocument, mountOpenApi } from './openapi/openapi';
import { ResponseCache } from './response-cache/response-cache';
import { responseCacheMiddleware } from './response-cache/response-cache.middleware';

export interface CreateAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  logger: Logger;
}

/** The HTTP pipeline every app shares: logging, body parsing, validation, problem+json, OpenAPI. */
export function configureHttp(app: NestExpressApplication, config: AppConfig, logger: Logger, responseCache?: ResponseCache): void {
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext);
  // Hits are answered here, before the full access logger, any parsing or routing: the hot path
  // of the catalogue (its access line is a compact one; misses go on and are logged in full).
  if (responseCache) app.use(responseCacheMiddleware(responseCache, compactAccessLog(logger)));
  app.use(httpLogger(logger));
  app.use(jsonBodiesOnly);
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES });
  app.useGlobalPipes(
    new ValidationPipe({
      ...REQUEST_VALIDATOR_OPTIONS,
      transform: true,
      exceptionFactory: requestValidationError,
    }),
  );
  app.useGlobalFilters(app.get(ProblemDetailsFilter));
  mountOpenApi(app, buildOpenApiDocument(app));
}

/** Builds the whole HTTP application; `serve`, `start:prod` and the end-to-end tests all use it. */
export async function createApp({ config, database, logger }: CreateAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), {
    logger: new PinoLoggerService(logger),
    bodyParser: false,
    // Raw bytes are kept (req.rawBody) for webhook signature checks: HMAC over the exact body.
    rawBody: true,
    abortOnError: false,
  });
  configureHttp(app, config, logger, app.get(ResponseCache));
  await app.init();
  const express = app.getHttpAdapter().getInstance() as unknown as { router?: { stack: Parameters<RouteTable['load']>[0] } };
  app.get(RouteTable).load(express.router?.stack ?? []);
  return app;
}
