import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { AppConfig } from '../../config/config.types';

/**
 * helmet's defaults (CSP `default-src 'self'`, nosniff, frame denial, no referrer, ...), which
 * the home page (one inline style) and the bundled Swagger UI (scripts and styles served from
 * /openapi itself) live within. Two changes: resources may be embedded cross-origin (a public
 * registry's key set, icons and JSON are meant for other sites), and HSTS and
 * upgrade-insecure-requests only when BASE_URL is https, so a plain-http deployment (an
 * internal host, a laptop) keeps loading its own scripts.
 */
export function securityHeaders(config: Pick<AppConfig, 'baseUrl'>): RequestHandler {
  // What helmet writes depends on its options only (no directive here is a function of the
  // request): written once at start, then copied onto every response, the hit path's included.
  const { set, removed } = securityHeaderValues(config);
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

/** The headers `securityHeaders` sets on every response (and those it removes). */
export function securityHeaderValues(config: Pick<AppConfig, 'baseUrl'>): { set: [string, string][]; removed: string[] } {
  const https = config.baseUrl.startsWith('https:');
  return headersWrittenBy(
    helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
      strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600 } : false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
}

/** The headers a middleware sets and removes, when it does so at once and alike for any request. */
export function headersWrittenBy(middleware: RequestHandler): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string) {
      set.set(name, value);
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  let finished = false;
  void middleware(
    {} as Request,
    recorder as unknown as Response,
    ((error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error(String(error));
      finished = true;
    }) as NextFunction,
  );
  if (!finished) throw new Error('the security headers middleware did not finish at once: its headers cannot be written ahead');
  return { set: [...set], removed };
}
