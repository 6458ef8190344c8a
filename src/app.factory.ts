import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { catalogueLane, type CatalogueLaneParts, type RequestListener } from './catalogue-lane';
import { LeanChangesReads } from './news/changes/lean-changes-reads';
import { LeanLogReads } from './trust/transparency/lean-log-reads';
import { ProblemDetailsFilter } from './common/errors/problem.filter';
import { requestValidationPipe } from './common/errors/validation';
import { jsonBodyParsers } from './common/http/body-limits';
import { answerPreconditionsByOneRule } from './common/http/conditional-get';
import { formBodyParser } from './common/http/form-bodies';
import { decodablePathsOnly } from './common/http/decodable-path';
import { InternalCalls } from './common/http/internal-calls';
import { jsonBodiesOnly } from './common/http/json-only';
import { securityHeaders, securityHeaderValues } from './common/http/security-headers';
import { setConnectionTimeouts } from './common/http/connection-timeouts';
import { RouteTable } from './common/http/route-table';
import { type AccessLogOptions, compactAccessLog, httpLogger, PinoLoggerService, unavailableSummary } from './common/logging/logger';
import { requestContext } from './common/logging/request-context';
import { StrayErrors } from './common/stray-errors';
import type { AppConfig } from './config/config.types';
import type { DatabaseHandle } from './database/database-handle';
import { buildOpenApiDocument, mountOpenApi } from './openapi/openapi';
import { httpMetricsMiddleware } from './platform/metrics/http-metrics.middleware';
import { Metrics } from './platform/metrics/metrics';
import { rateLimitMiddleware } from './platform/rate-limit/rate-limit.middleware';
import { RateLimiter } from './platform/rate-limit/rate-limiter';
import { LeanCatalogueReads } from './catalogue/plugins/lean-catalogue-reads';
import { ResponseCache } from './platform/response-cache/response-cache';
import { responseCacheMiddleware } from './platform/response-cache/response-cache.middleware';

export interface CreateAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  logger: Logger;
}

/** The parts of the pipeline that need the application's providers (tests may leave them out). */
export interface HttpPipelineParts {
  responseCache?: ResponseCache;
  rateLimiter?: RateLimiter;
  metrics?: Metrics;
  internalCalls?: InternalCalls;
}

/** The HTTP pipeline every app shares: logging, body parsing, validation, problem+json, OpenAPI. */
export function configureHttp(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger,
  parts: HttpPipelineParts = {},
): AccessLogOptions {
  // One set for every access line of the process: the pages' own API calls at debug, 503s summarised.
  const internalCalls = parts.internalCalls;
  const access: AccessLogOptions = {
    isInternal: internalCalls ? (req) => internalCalls.isInternal(req) : undefined,
    unavailable: unavailableSummary(logger),
  };
  app.disable('x-powered-by');
  app.set('trust proxy', typeof config.trustProxy === 'object' ? [...config.trustProxy] : config.trustProxy);
  app.use(requestContext);
  const metrics = parts.metrics;
  if (metrics)
    app.use(httpMetricsMiddleware(metrics, app.get(RouteTable), new StrayErrors(logger, (source) => metrics.observeStrayError(source))));
  // Decoded once, before anything routes or keys on the path: a malformed escape is a 400 here.
  app.use(decodablePathsOnly);
  // Before the cache: a replayed answer keeps the headers already set on the response.
  app.use(securityHeaders(config));
  // Metered before the cache, so cached answers count against the limit too.
  if (parts.rateLimiter)
    app.use(
      rateLimitMiddleware(
        parts.rateLimiter,
        { ipv6PrefixBits: config.rateLimitIpv6PrefixBits, internalCalls },
        compactAccessLog(logger, { rateLimited: true }, access),
      ),
    );
  // Hits are answered here, before the full access logger, any parsing or routing (its access
  // line is a compact one; misses go on and are logged in full). The catalogue lane answers the
  // hits of its own reads before Express.
  if (parts.responseCache) app.use(responseCacheMiddleware(parts.responseCache, compactAccessLog(logger, { cache: 'hit' }, access)));
  app.use(httpLogger(logger, access));
  app.use(jsonBodiesOnly);
  // Each route family gets its own limit (common/http/body-limits); the raw bytes are kept.
  app.use(jsonBodyParsers());
  app.use(formBodyParser());
  app.useGlobalPipes(requestValidationPipe());
  app.useGlobalFilters(app.get(ProblemDetailsFilter));
  mountOpenApi(app, () => buildOpenApiDocument(app));
  return access;
}

/**
 * One spelling per path: every path-keyed rule (rate limits, the response cache and its
 * invalidation, the Redis fail-closed rule) compares paths exactly, so routing must too, or
 * `/API/PUBLISH/x` would reach publish past all of them. Set before anything touches the router.
 */
export function caseSensitiveExpress(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  answerPreconditionsByOneRule(instance.request);
  return new ExpressAdapter(instance);
}

/** Builds the whole HTTP application; `serve`, `start:prod` and the end-to-end tests all use it. */
export async function createApp({ config, database, logger }: CreateAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), caseSensitiveExpress(), {
    logger: new PinoLoggerService(logger),
    // configureHttp mounts the JSON parsers, with per-route limits, keeping the raw body.
    bodyParser: false,
    abortOnError: false,
  });
  return assembleApp(app, config, logger);
}

/**
 * The HTTP pipeline, the catalogue lane and init on an application whose module is built: what
 * createApp does after NestFactory.create, and what a test that replaces a provider (the clock)
 * does after its testing module compiles (made with caseSensitiveExpress()).
 */
export async function assembleApp(app: NestExpressApplication, config: AppConfig, logger: Logger): Promise<NestExpressApplication> {
  const access = configureHttp(app, config, logger, {
    responseCache: app.get(ResponseCache),
    rateLimiter: app.get(RateLimiter),
    metrics: app.get(Metrics),
    internalCalls: app.get(InternalCalls),
  });
  setConnectionTimeouts(app.getHttpServer() as Server, config);
  await app.init();
  const express = app.getHttpAdapter().getInstance() as unknown as ExpressInstance;
  app.get(RouteTable).load(express.router?.stack ?? []);
  openCatalogueLane(app, express, config, logger, access);
  return app;
}

interface ExpressInstance {
  router?: { stack: Parameters<RouteTable['load']>[0] };
  get(setting: string): unknown;
}

/** Puts the catalogue lane (catalogue-lane.ts) in front of Express on the HTTP server. */
function openCatalogueLane(
  app: NestExpressApplication,
  express: ExpressInstance,
  config: AppConfig,
  logger: Logger,
  access: AccessLogOptions,
): void {
  const server = app.getHttpServer() as Server;
  const [expressListener, ...others] = server.listeners('request') as RequestListener[];
  if (!expressListener || others.length) throw new Error('expected Express as the one request listener of the HTTP server');
  const metrics = app.get(Metrics);
  const lane = catalogueLane(
    {
      reads: [app.get(LeanCatalogueReads), app.get(LeanChangesReads), app.get(LeanLogReads)],
      cache: app.get(ResponseCache),
      limiter: app.get(RateLimiter),
      internalCalls: app.get(InternalCalls),
      ipv6PrefixBits: config.rateLimitIpv6PrefixBits,
      metrics,
      strayErrors: new StrayErrors(logger, (source) => metrics.observeStrayError(source)),
      securityHeaders: securityHeaderValues(config).set,
      // Unset when the application disabled them: Express then has `req.query` {} and no ETag.
      parseQuery: (express.get('query parser fn') as CatalogueLaneParts['parseQuery'] | undefined) ?? (() => ({})),
      trustProxy: express.get('trust proxy fn') as CatalogueLaneParts['trustProxy'],
      etagOf: (express.get('etag fn') as CatalogueLaneParts['etagOf'] | undefined) ?? (() => undefined),
      logAnswer: compactAccessLog(logger, { lean: true }, access),
      logHit: compactAccessLog(logger, { cache: 'hit' }, access),
    },
    expressListener,
  );
  server.removeListener('request', expressListener);
  server.on('request', lane);
}
