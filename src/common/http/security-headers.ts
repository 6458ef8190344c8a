import type { RequestHandler } from 'express';
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
  const https = config.baseUrl.startsWith('https:');
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600 } : false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
