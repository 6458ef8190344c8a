import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { carriesCredentials } from './platform/auth/auth-context';
import { notModified } from './common/http/conditional-get';
import { isDecodablePath } from './common/http/decodable-path';
import type { LeanRead, LeanReads } from './common/http/lean-read';
import { keepRequestId, requestIdFor, runInRequestContext } from './common/logging/request-context';
import type { StrayErrors } from './common/stray-errors';
import type { InternalCalls } from './common/http/internal-calls';
import type { Metrics } from './platform/metrics/metrics';
import { meteredAhead, meteringRule } from './platform/rate-limit/rate-limit.middleware';
import type { RateLimiter } from './platform/rate-limit/rate-limiter';
import { responseCacheKey } from './platform/response-cache/cache-key';
import type { ResponseCache } from './platform/response-cache/response-cache';
import { mayShare, replay, replayedHeaders } from './platform/response-cache/response-cache.middleware';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type AccessLog = (req: IncomingMessage, res: ServerResponse, startedAt: bigint) => void;

export interface CatalogueLaneParts {
  /** The features' lean reads, asked in order (plugins/lean-catalogue-reads, changes/lean-changes-reads). */
  reads: readonly LeanReads[];
  cache: ResponseCache;
  limiter: RateLimiter;
  internalCalls: InternalCalls;
  /** RATE_LIMIT_IPV6_PREFIX: the network an IPv6 client is counted by, as in the middleware. */
  ipv6PrefixBits: number;
  metrics: Metrics;
  strayErrors: StrayErrors;
  /** The headers every response carries (common/http/security-headers). */
  securityHeaders: readonly (readonly [string, string])[];
  /** Express's own settings, so both paths parse, address and tag alike: `query parser fn`, `trust proxy fn`, `etag fn`. */
  parseQuery: (search: string | null) => Record<string, unknown>;
  trustProxy: (address: string, hop: number) => boolean;
  etagOf: (body: string, encoding: 'utf8') => string | undefined;
  logAnswer: AccessLog;
  logHit: AccessLog;
}

/**
 * The anonymous catalogue reads (list and search, a plugin's page, `latest`, the changes feed),
 * hits and misses, answered on node:http ahead of Express. The catalogue is read a thousand
 * times for every write, and answered through Express a miss spent more of the server's time in the per-request
 * machinery (Express's request and response objects, its router, one middleware after another)
 * than in its database read: 1,084-1,170 us of server CPU a plugin page, 654-670 us here.
 *
 * Each answer goes through what the Express pipeline does to it, in the same order, from the
 * same code: the request id (and its logging context), the rate limit, the response cache (hit
 * replayed; a miss stored), the security headers, the route's own headers, Express's ETag and
 * freshness (304), HEAD, the route metrics and the compact access line. Anything else is handed
 * to Express untouched: another method or path, a caller with credentials, an undecodable path, a
 * refusal of the rate limit (with its decision, so it is not counted twice), a cache that fails,
 * and every answer but a 200 (the controllers give those). test/e2e/lean-catalogue-reads.e2e.ts
 * and test/e2e/changes-feed.e2e.ts hold the two paths equal, headers and all.
 */
export function catalogueLane(parts: CatalogueLaneParts, express: RequestListener): RequestListener {
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const startedAt = process.hrtime.bigint();
    const read = laneRead(parts, req);
    if (!read) return express(req, res);
    const requestId = requestIdFor(req.headers);
    // Handed over, the request keeps the id it may already have logged under.
    const handOver = () => {
      keepRequestId(req, requestId);
      express(req, res);
    };
    runInRequestContext(requestId, () => answer(parts, { req, res, read: read.read, path: read.path, requestId, startedAt })).then(
      (answered) => {
        if (!answered) handOver();
      },
      (error: unknown) => {
        if (!res.headersSent) return handOver();
        parts.strayErrors.report('response-hook', error, requestId);
      },
    );
  };
  return handle;
}

/** The lean read for this request, or null when Express must have it. */
function laneRead(parts: CatalogueLaneParts, req: IncomingMessage): { read: LeanRead; path: string } | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const url = req.url ?? '';
  if (url.charCodeAt(0) !== 0x2f || url.includes('#') || carriesCredentials(req)) return null;
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  if (!isDecodablePath(path)) return null;
  const lean = { path, query: parts.parseQuery(question < 0 ? null : url.slice(question + 1)), headers: req.headers };
  for (const reads of parts.reads) {
    const read = reads.readFor(lean);
    if (read) return { read, path };
  }
  return null;
}

/** One request on its way through the lane. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  read: LeanRead;
  /** The path as received (percent-escapes and all), as Express's `req.path`. */
  path: string;
  requestId: string;
  startedAt: bigint;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answers the read; false when nothing was written and Express must answer instead. */
async function answer(parts: CatalogueLaneParts, exchange: Exchange): Promise<boolean> {
  const { req, res, path, requestId } = exchange;
  const rule = meteringRule({ method: req.method!, path, ip: proxyaddr(req, parts.trustProxy), headers: req.headers }, parts);
  if (rule) {
    const decision = await parts.limiter.check(rule);
    if (decision.outcome !== 'allowed') {
      meteredAhead(req, rule, decision);
      return false;
    }
  }
  const handOver = () => {
    if (rule) meteredAhead(req, rule, { outcome: 'allowed' });
    return false;
  };
  const key = parts.cache.enabled ? responseCacheKey({ method: req.method!, originalUrl: req.url!, headers: req.headers }) : null;
  const found = key === null ? null : await parts.cache.lookup(key).catch(() => undefined);
  if (found === undefined) return handOver();
  if (found?.entry) {
    res.setHeader('X-Request-Id', requestId);
    for (const [name, value] of parts.securityHeaders) res.setHeader(name, value);
    replay(req, res, found.entry);
    finish(parts, exchange, 'hit');
    return true;
  }
  const answered = await exchange.read.answer().catch(() => null);
  if (!answered) return handOver();
  const body = answered.json ?? JSON.stringify(answered.body);
  // In the order Express writes them; the route's own headers as its controller spells them.
  const headers: Record<string, string> = { 'X-Request-Id': requestId };
  for (const [name, value] of parts.securityHeaders) headers[name] = value;
  if (found) headers['X-Cache'] = 'miss';
  for (const { name, value } of answered.headers) headers[name] = value;
  const etag = parts.etagOf(body, 'utf8');
  if (etag) headers.ETag = etag;
  // As Express's res.send (whose req.fresh is the same rule): a fresh request gets 304 without
  // Content-Type and Content-Length, and its answer is not stored (the response cache middleware
  // stores only what has a Content-Type).
  if (notModified(req.headers, etag ? { etag } : {})) {
    // Even one the route declares (Express's res.send removes it from a 304).
    delete headers['Content-Type'];
    res.writeHead(304, headers).end();
  } else {
    headers['Content-Type'] = JSON_CONTENT_TYPE;
    headers['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
    const cacheControl = headers['Cache-Control'] ?? null;
    if (found && key && etag && mayShare(cacheControl, false)) {
      void parts.cache.remember(key, found.generation, {
        body,
        etag,
        contentType: JSON_CONTENT_TYPE,
        cacheControl: cacheControl ?? 'no-cache',
        vary: headers.Vary ?? null,
        ...replayedHeaders((name) => headers[name]),
      });
    }
  }
  finish(parts, exchange, found ? 'miss' : null);
  return true;
}

/** The route metrics and the access line of an answer given here. */
function finish(parts: CatalogueLaneParts, { req, res, read, startedAt, requestId }: Exchange, cache: 'hit' | 'miss' | null): void {
  parts.strayErrors.guard(
    'response-hook',
    () => {
      parts.metrics.observeHttp(req.method!, read.template, res.statusCode, Number(process.hrtime.bigint() - startedAt) / 1e9);
      if (cache) parts.metrics.observeCache(cache);
      (cache === 'hit' ? parts.logHit : parts.logAnswer)(req, res, startedAt);
    },
    requestId,
  )();
}
