import type { NextFunction, Request, Response } from 'express';
import type { RouteTable } from '../../common/http/route-table';
import { StrayErrors } from '../../common/stray-errors';
import type { Metrics } from './metrics';

/**
 * Times every request from its first byte to its last, labelled by route template. Answers given
 * before routing (cache hits, rate-limit refusals) find their template in the route table. The
 * listener runs after the handler, outside any request scope: what it throws is reported, never raised.
 */
export function httpMetricsMiddleware(metrics: Metrics, routes: RouteTable, strayErrors: StrayErrors) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const requestId = res.getHeader('X-Request-Id');
    const observe = () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const matched = (req.route as { path?: string } | undefined)?.path;
      const route = matched ? `${req.baseUrl}${matched}` : (routes.templateFor(req.method, req.path) ?? 'unmatched');
      metrics.observeHttp(req.method, route, res.statusCode, seconds);
      const cache = res.getHeader('X-Cache');
      if (cache === 'hit' || cache === 'miss') metrics.observeCache(cache);
    };
    res.once('finish', strayErrors.guard('response-hook', observe, typeof requestId === 'string' ? requestId : undefined));
    next();
  };
}
