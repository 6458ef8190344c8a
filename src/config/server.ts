import { isIP } from 'node:net';
import type { AppConfig, TrustProxy } from './config.types';
import { integer, map, oneOf, url } from './parsers';
import { type ConfigArea, type EnvironmentReader, Invalid, type Parser } from './variable';

const NODE_ENVS = ['development', 'production', 'test'] as const;
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: true/false, a hop count, or a comma list of addresses, CIDRs and range names. */
export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v) <= 32 ? Number(v) : null;
  const entries = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const valid = (entry: string) => {
    if (NAMED_PROXY_RANGES.includes(entry)) return true;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  return entries.length && entries.every(valid) ? Object.freeze(entries) : null;
}

const trustProxy: Parser<TrustProxy> = {
  type: `true | false | hop count 0 to 32 | comma list of addresses, CIDRs, ${NAMED_PROXY_RANGES.join(', ')}`,
  parse: (raw) =>
    parseTrustProxy(raw) ??
    new Invalid('must be true, false, a hop count (0 to 32) or a comma list of IP addresses, CIDRs, loopback, linklocal and uniquelocal'),
};

const NODE_ENV = {
  name: 'NODE_ENV',
  parser: oneOf(NODE_ENVS),
  default: 'development',
  description: '`production` requires `SESSION_SECRET` and `KEY_ENCRYPTION_KEY` and logs JSON; `test` logs nothing by default.',
};
const PORT = { name: 'PORT', parser: integer({ min: 0, max: 65535 }), default: '3000', description: 'HTTP port.' };
const BASE_URL = {
  name: 'BASE_URL',
  parser: map(url('an http(s) URL', ['http:', 'https:']), (text) => new URL(text).toString().replace(/\/+$/, '')),
  unset: '`http://localhost:$PORT`',
  description: 'Public URL of this registry: links, problem `type`s, webhook URLs.',
};
const TRUST_PROXY = {
  name: 'TRUST_PROXY',
  parser: trustProxy,
  default: 'loopback',
  description:
    'Whose `X-Forwarded-For` is believed for the client address (rate limits, audit IPs); `true` trusts anyone, so only behind a proxy that overwrites the header.',
};
const HTTP_REQUEST_TIMEOUT_MS = {
  name: 'HTTP_REQUEST_TIMEOUT_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '60000',
  description: 'Longest time a client may take to send a whole request, counted from its first byte; slower clients get 408.',
};
const HTTP_HEADERS_TIMEOUT_MS = {
  name: 'HTTP_HEADERS_TIMEOUT_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '15000',
  description:
    "Longest time a client may take to send a request's headers, counted from its first byte (slow-loris defence; capped at `HTTP_REQUEST_TIMEOUT_MS`); the idle time of a kept-alive connection between requests does not count.",
};
const HTTP_KEEP_ALIVE_TIMEOUT_MS = {
  name: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '65000',
  description:
    "How long an idle keep-alive connection is kept open for the next request. Behind a proxy or load balancer it must outlast the proxy's own idle timeout (often 60 s), or the proxy may reuse a connection the server is closing.",
};
const RATE_LIMIT_IPV6_PREFIX = {
  name: 'RATE_LIMIT_IPV6_PREFIX',
  parser: integer({ min: 16, max: 128 }),
  default: '64',
  description:
    'Per-address limits count an IPv6 client by its network of this many bits (one host usually holds a whole /64); IPv4 (and IPv4-mapped IPv6) by its address. 128 counts each IPv6 address alone.',
};
const IDLE_COLLECT_INTERVAL_MS = {
  name: 'IDLE_COLLECT_INTERVAL_MS',
  parser: integer({ min: 0, max: 3_600_000, unit: 'milliseconds' }),
  default: '10000',
  description:
    'How often the server checks whether it went quiet (event loop busy under 5% of the interval) with 8 MiB or more of heap grown since its last full garbage collection, and then collects once, giving memory back to the system; `0` leaves collection to V8 alone.',
};
const CATALOGUE_INDEX_WAIT_MS = {
  name: 'CATALOGUE_INDEX_WAIT_MS',
  parser: integer({ min: 0, max: 120_000, unit: 'milliseconds' }),
  default: '10000',
  description:
    "While a started instance first builds its in-memory catalogue index (about 5 s for 100,000 plugins), how long a list or search waits for it before it is answered with the catalogue's SQL instead (exact, but seconds a search under load, and without facet counts). `0` answers with SQL at once.",
};
const SHUTDOWN_GRACE_MS = {
  name: 'SHUTDOWN_GRACE_MS',
  parser: integer({ min: 0, max: 600_000, unit: 'milliseconds' }),
  default: '25000',
  description: 'On SIGTERM, how long in-flight requests and ingests may take before the server closes anyway.',
};

export const SERVER: ConfigArea = {
  title: 'Server',
  variables: [
    NODE_ENV,
    PORT,
    BASE_URL,
    TRUST_PROXY,
    RATE_LIMIT_IPV6_PREFIX,
    HTTP_REQUEST_TIMEOUT_MS,
    HTTP_HEADERS_TIMEOUT_MS,
    HTTP_KEEP_ALIVE_TIMEOUT_MS,
    IDLE_COLLECT_INTERVAL_MS,
    CATALOGUE_INDEX_WAIT_MS,
    SHUTDOWN_GRACE_MS,
  ],
};

export type ServerConfig = Pick<
  AppConfig,
  | 'nodeEnv'
  | 'isProduction'
  | 'port'
  | 'baseUrl'
  | 'trustProxy'
  | 'rateLimitIpv6PrefixBits'
  | 'httpRequestTimeoutMs'
  | 'httpHeadersTimeoutMs'
  | 'httpKeepAliveTimeoutMs'
  | 'idleCollectIntervalMs'
  | 'catalogueIndexWaitMs'
  | 'shutdownGraceMs'
>;

export function readServer(reader: EnvironmentReader): ServerConfig {
  const nodeEnv = reader.read(NODE_ENV);
  const port = reader.read(PORT);
  const httpRequestTimeoutMs = reader.read(HTTP_REQUEST_TIMEOUT_MS);
  return {
    nodeEnv,
    isProduction: nodeEnv === 'production',
    port,
    baseUrl: reader.read(BASE_URL) ?? `http://localhost:${port}`,
    trustProxy: reader.read(TRUST_PROXY),
    rateLimitIpv6PrefixBits: reader.read(RATE_LIMIT_IPV6_PREFIX),
    httpRequestTimeoutMs,
    // Node refuses headers after the whole request's time is up anyway; the cap says so.
    httpHeadersTimeoutMs: Math.min(reader.read(HTTP_HEADERS_TIMEOUT_MS), httpRequestTimeoutMs),
    httpKeepAliveTimeoutMs: reader.read(HTTP_KEEP_ALIVE_TIMEOUT_MS),
    idleCollectIntervalMs: reader.read(IDLE_COLLECT_INTERVAL_MS),
    catalogueIndexWaitMs: reader.read(CATALOGUE_INDEX_WAIT_MS),
    shutdownGraceMs: reader.read(SHUTDOWN_GRACE_MS),
  };
}
