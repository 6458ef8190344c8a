import type { ForgeInstanceConfig } from '../lib/forge/types';
import type { TrustedRootMaterial } from '../lib/provenance';

export type { ForgeInstanceConfig, ForgeType } from '../lib/forge/types';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Which peers' X-Forwarded-For is believed (Express `trust proxy`): none (false), every one
 * (true), the nearest N hops, or a list of addresses, CIDRs and the names loopback, linklocal and
 * uniquelocal.
 */
export type TrustProxy = boolean | number | readonly string[];

export interface AppConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly isProduction: boolean;
  readonly port: number;
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Null selects the embedded PGlite under dataDir. */
  readonly databaseUrl: string | null;
  /** Replicas for catalogue reads; empty: every query goes to `databaseUrl`. */
  readonly databaseReadUrls: readonly string[];
  /** How often each read replica is checked: one that is down is taken back once it answers. */
  readonly databaseReadProbeIntervalMs: number;
  /** Opening a connection (or waiting for one from the pool) longer than this fails the request with 503. */
  readonly databaseConnectTimeoutMs: number;
  /** The serving process's statement_timeout on a PostgreSQL server; 0: none. */
  readonly databaseStatementTimeoutMs: number;
  /** Null keeps caches and rate-limit counters in process memory. */
  readonly redisUrl: string | null;
  readonly sessionSecret: string;
  /** 32 bytes; encrypts signing keys and stored provider tokens at rest. */
  readonly keyEncryptionKey: Buffer;
  readonly hashBudgetBytes: number;
  readonly forges: readonly ForgeInstanceConfig[];
  /** `host` or `host:port` entries that may be fetched over http and resolve to private addresses. */
  readonly fetchAllowHosts: readonly string[];
  /** The same for the README image proxy; the only such list for it (fetchAllowHosts never applies to it). */
  readonly imageProxyAllowHosts: readonly string[];
  /** Picture bytes (downloads, sources, encodings kept for a release) one instance holds at once; past it a picture is left out. */
  readonly pictureMemoryBytes: number;
  /** The same for one publisher (or plugin, or the README proxy as a whole). */
  readonly pictureMemoryBytesPerUser: number;
  /** How long one release's pictures wait for their turns, all together; a picture still waiting then is left out. */
  readonly pictureWaitMs: number;
  /** Operator Sigstore trusted roots (PROVENANCE_TRUSTED_ROOTS), parsed; the public-good root is always trusted besides. */
  readonly provenanceTrustedRoots: readonly TrustedRootMaterial[];
  readonly initToken: string | null;
  readonly logLevel: LogLevel;
  /** `auto`: pretty on a terminal, JSON lines otherwise (production defaults to json). */
  readonly logFormat: LogFormat;
  readonly migrateOnStart: boolean;
  /** How often the embedded engine refreshes planner statistics (ANALYZE); unused on PostgreSQL. */
  readonly embeddedAnalyzeIntervalMs: number;
  /** The embedded engine's shared_buffers in MiB (null: the engine's default); unused on PostgreSQL. */
  readonly embeddedSharedBuffersMb: number | null;
  /** Lifetime of the signed freshness statement on `latest` answers; a new one is issued hourly (or at half of it, when shorter). */
  readonly freshnessLifetimeSeconds: number;
  /** How long a catalogue response may be served from the response cache; 0 turns the cache off. */
  readonly responseCacheTtlSeconds: number;
  /** The in-memory response cache's size limit (without Redis): 64 MiB on PostgreSQL, 16 on the embedded default. */
  readonly responseCacheMemoryMb: number;
  /** The audience (`aud`) a CI OIDC ID token must name for trusted publishing; BASE_URL by default. */
  readonly oidcAudience: string;
  /** Default `['loopback']`: a proxy on the same host may say who the client is; nobody else. */
  readonly trustProxy: TrustProxy;
  /** Per-address rate limits count an IPv6 client by its network of this many bits (IPv4 by its address). */
  readonly rateLimitIpv6PrefixBits: number;
  /** Longest time a client may take to send a whole request (Node's server.requestTimeout). */
  readonly httpRequestTimeoutMs: number;
  /** Longest time a client may take to send a request's headers (server.headersTimeout); at most httpRequestTimeoutMs. */
  readonly httpHeadersTimeoutMs: number;
  /** How long an idle keep-alive connection waits for its next request (server.keepAliveTimeout). */
  readonly httpKeepAliveTimeoutMs: number;
  /** How often a quiet server checks for heap to give back (common/idle-collector); 0: never. */
  /** How long a list or search waits for the catalogue index while it is first built, before SQL answers it. */
  readonly catalogueIndexWaitMs: number;
  readonly idleCollectIntervalMs: number;
  /** Bearer token `GET /metrics` requires; null leaves it to loopback callers only. */
  readonly metricsToken: string | null;
  /** How long SIGTERM waits for in-flight requests and ingests before closing anyway. */
  readonly shutdownGraceMs: number;
  /** Password hashes (scrypt) one instance computes at once; past it, 503 with Retry-After. */
  readonly passwordHashConcurrency: number;
  /**
   * How long a webhook delivery attempt holds its claim without a heartbeat: the attempt renews it
   * while it runs, so a crashed instance's delivery is taken up by another within about this long.
   */
  readonly webhookLeaseMs: number;
  /** Days of failing deliveries (no success between) after which an outbound subscription is disabled. */
  readonly subscriptionDisableAfterDays: number;
  /**
   * `host` or `host:port` entries an outbound subscription may reach over http and on private
   * addresses; the only such list for subscriptions (fetchAllowHosts never applies to them).
   */
  readonly subscriptionAllowHosts: readonly string[];
  /** The registry this instance mirrors (read-only); null: not a mirror. */
  readonly mirrorOf: string | null;
  /** How often a mirror reads its upstream's changes feed. */
  readonly mirrorPollIntervalMs: number;
  /** How long a mirror waits for upstream on a transparency-log read it passes on (then 504). */
  readonly mirrorLogTimeoutMs: number;
}
