import type { IncomingHttpHeaders } from 'node:http';
import { carriesCredentials } from '../auth/auth-context';
import { platformFromUserAgent } from '../../lib/platform/platform';

/** The anonymous catalogue reads the response cache serves: list, detail, latest, one release, the Atom feeds. */
const CACHED_PATHS: readonly RegExp[] = [
  /^\/api\/plugins$/,
  /^\/api\/plugins\/[^/]+$/,
  /^\/api\/plugins\/[^/]+\/latest$/,
  /^\/api\/plugins\/[^/]+\/releases\/[^/]+$/,
  /^\/feeds\/(releases|kinds\/[^/]+|plugins\/[^/]+|owners\/[^/]+\/[^/]+)\.atom$/,
];

/** `/latest` picks an asset by the User-Agent when no os/arch is given: the platform it names is part of the key. */
const PLATFORM_BY_USER_AGENT = /^\/api\/plugins\/[^/]+\/latest$/;

export interface CacheableRequest {
  method: string;
  /** Path and query as received. */
  originalUrl: string;
  headers: IncomingHttpHeaders;
}

/**
 * The cache key of a request, or null when its answer must not be shared: not a catalogue read,
 * or a caller who may see more than the public (the session guard's own reading of the cookies,
 * or any Authorization header). Query parameters are sorted by name, so `?a=1&b=2` and
 * `?b=2&a=1` share an entry.
 */
export function responseCacheKey(request: CacheableRequest): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (carriesCredentials(request)) return null;
  const url = request.originalUrl;
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  if (!CACHED_PATHS.some((pattern) => pattern.test(path))) return null;
  // Sorted by name only (the sort is stable): a repeated parameter keeps its order, which a handler may read.
  const params = [...new URLSearchParams(question < 0 ? '' : url.slice(question + 1))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let key = `${path}?${new URLSearchParams(params).toString()}`;
  if (PLATFORM_BY_USER_AGENT.test(path)) {
    const userAgent = request.headers['user-agent'];
    const { os, arch } = platformFromUserAgent(typeof userAgent === 'string' ? userAgent : undefined);
    key += `#${os ?? '-'}/${arch ?? '-'}`;
  }
  return key;
}

/** Writes that change what the catalogue shows, answered by the HTTP surface: they empty the cache. */
export function isCatalogueWrite(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (!path.startsWith('/api/')) return false;
  // Sign-in, sessions, tokens (trusted publishing's exchange and publishers too) and wishlist votes
  // never change a catalogue answer; webhook receipts, replays, reconciles and secrets only queue
  // or configure (the delivery worker empties the cache when a release lands).
  if (path === '/api/publish/oidc/token' || path.startsWith('/api/webhooks/')) return false;
  if (/^\/api\/plugins\/[^/]+\/(trusted-publishers|deliveries|webhook-secret)(\/|$)/.test(path)) return false;
  return !path.startsWith('/api/auth/') && !path.startsWith('/api/requests');
}
