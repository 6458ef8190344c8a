import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { ensurePrivateDirectory, PRIVATE_FILE_MODE, tightenTree } from '../common/files/private-directory';
import { InvalidAllowHostError, parseAllowedHost } from '../ingest/fetch/address-policy';
import { ConfigError, type ConfigProblem } from './config.error';
import type { AppConfig, LogFormat, LogLevel, TrustProxy } from './config.types';
import { DEFAULT_FORGES, parseForges } from './forges';

export type Environment = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['auto', 'json', 'pretty'];
const NODE_ENVS = ['development', 'production', 'test'] as const;

/** Every variable the service reads, with its default; `.env.example` mirrors this list. */
export const CONFIG_VARIABLES = [
  'NODE_ENV',
  'PORT',
  'BASE_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_READ_URLS',
  'DATABASE_READ_PROBE_INTERVAL_MS',
  'REDIS_URL',
  'SESSION_SECRET',
  'KEY_ENCRYPTION_KEY',
  'HASH_BUDGET_BYTES',
  'FORGES',
  'FETCH_ALLOW_HOSTS',
  'INIT_TOKEN',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'MIGRATE_ON_START',
  'EMBEDDED_ANALYZE_INTERVAL_MS',
  'EMBEDDED_SHARED_BUFFERS_MB',
  'RESPONSE_CACHE_TTL_S',
  'RESPONSE_CACHE_MEMORY_MB',
  'OIDC_AUDIENCE',
  'TRUST_PROXY',
  'HTTP_REQUEST_TIMEOUT_MS',
  'METRICS_TOKEN',
  'SHUTDOWN_GRACE_MS',
  'WEBHOOK_LEASE_MS',
] as const;

const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: true/false, a hop count, or a comma list of addresses, CIDRs and range names. */
export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v) <= 32 ? Number(v) : null;
  const entries = v.split(',').map((s) => s.trim()).filter(Boolean);
  const valid = (entry: string) => {
    if (NAMED_PROXY_RANGES.includes(entry)) return true;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  return entries.length && entries.every(valid) ? Object.freeze(entries) : null;
}

function blank(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === '';
}

function parseBoolean(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return null;
}

function parseUrl(value: string, protocols: string[]): URL | null {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Secrets that may be generated outside production are kept in DATA_DIR so restarts keep
 * sessions valid and encrypted keys readable.
 */
function persistedSecret(dataDir: string, fileName: string, make: () => string): string {
  const path = join(dataDir, fileName);
  // Owner-only, and tightened when an older version left them readable to others.
  ensurePrivateDirectory(dataDir);
  if (existsSync(path)) {
    tightenTree(path);
    return readFileSync(path, 'utf8').trim();
  }
  const value = make();
  writeFileSync(path, value + '\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return value;
}

export interface LoadConfigOptions {
  /** Generate missing development secrets under DATA_DIR (the server and operator CLI do; unit tests need not). */
  persistSecrets?: boolean;
}

/** Reads the environment once into a frozen, typed object; lists every bad variable in one error. */
export function loadConfig(env: Environment, options: LoadConfigOptions = {}): AppConfig {
  const problems: ConfigProblem[] = [];
  const bad = (variable: string, message: string) => problems.push({ variable, message });

  const nodeEnvRaw = blank(env.NODE_ENV) ? 'development' : env.NODE_ENV!.trim();
  const nodeEnv = (NODE_ENVS as readonly string[]).includes(nodeEnvRaw) ? (nodeEnvRaw as AppConfig['nodeEnv']) : 'development';
  if (nodeEnv !== nodeEnvRaw) bad('NODE_ENV', `must be one of ${NODE_ENVS.join(', ')}`);
  const isProduction = nodeEnv === 'production';

  let port = 3000;
  if (!blank(env.PORT)) {
    port = Number(env.PORT);
    if (!/^\d+$/.test(env.PORT!.trim()) || port > 65535) bad('PORT', 'must be an integer from 0 to 65535');
  }

  let baseUrl = `http://localhost:${port}`;
  if (!blank(env.BASE_URL)) {
    const url = parseUrl(env.BASE_URL!.trim(), ['http:', 'https:']);
    if (!url) bad('BASE_URL', 'must be an http(s) URL');
    else baseUrl = url.toString().replace(/\/+$/, '');
  }

  const dataDir = resolve(blank(env.DATA_DIR) ? './data' : env.DATA_DIR!.trim());

  let databaseUrl: string | null = null;
  if (!blank(env.DATABASE_URL)) {
    if (!parseUrl(env.DATABASE_URL!.trim(), ['postgres:', 'postgresql:'])) bad('DATABASE_URL', 'must be a postgres:// URL');
    else databaseUrl = env.DATABASE_URL!.trim();
  }

  // Streaming replicas of DATABASE_URL that serve anonymous catalogue reads (see data-source-options).
  const databaseReadUrls: string[] = [];
  if (!blank(env.DATABASE_READ_URLS)) {
    if (!databaseUrl) bad('DATABASE_READ_URLS', 'needs DATABASE_URL (the embedded database has no replicas)');
    for (const entry of env.DATABASE_READ_URLS!.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (parseUrl(entry, ['postgres:', 'postgresql:'])) databaseReadUrls.push(entry);
      else bad('DATABASE_READ_URLS', 'must be a comma list of postgres:// URLs');
    }
  }

  let databaseReadProbeIntervalMs = 10_000;
  if (!blank(env.DATABASE_READ_PROBE_INTERVAL_MS)) {
    databaseReadProbeIntervalMs = Number(env.DATABASE_READ_PROBE_INTERVAL_MS);
    if (!/^\d+$/.test(env.DATABASE_READ_PROBE_INTERVAL_MS!.trim()) || databaseReadProbeIntervalMs < 100 || databaseReadProbeIntervalMs > 3_600_000) {
      bad('DATABASE_READ_PROBE_INTERVAL_MS', 'must be an integer number of milliseconds from 100 to 3600000');
    }
  }

  let redisUrl: string | null = null;
  if (!blank(env.REDIS_URL)) {
    if (!parseUrl(env.REDIS_URL!.trim(), ['redis:', 'rediss:'])) bad('REDIS_URL', 'must be a redis:// or rediss:// URL');
    else redisUrl = env.REDIS_URL!.trim();
  }

  let sessionSecret = '';
  if (!blank(env.SESSION_SECRET)) {
    sessionSecret = env.SESSION_SECRET!;
    if (sessionSecret.length < 32) bad('SESSION_SECRET', 'must be at least 32 characters');
  } else if (isProduction) {
    bad('SESSION_SECRET', 'is required when NODE_ENV=production');
  }

  let keyEncryptionKey: Buffer = Buffer.alloc(0);
  if (!blank(env.KEY_ENCRYPTION_KEY)) {
    if (!/^[0-9a-fA-F]{64}$/.test(env.KEY_ENCRYPTION_KEY!.trim())) bad('KEY_ENCRYPTION_KEY', 'must be 32 bytes as 64 hex characters');
    else keyEncryptionKey = Buffer.from(env.KEY_ENCRYPTION_KEY!.trim(), 'hex');
  } else if (isProduction) {
    bad('KEY_ENCRYPTION_KEY', 'is required when NODE_ENV=production');
  }

  let hashBudgetBytes = 524_288_000;
  if (!blank(env.HASH_BUDGET_BYTES)) {
    hashBudgetBytes = Number(env.HASH_BUDGET_BYTES);
    if (!/^\d+$/.test(env.HASH_BUDGET_BYTES!.trim()) || !Number.isSafeInteger(hashBudgetBytes)) {
      bad('HASH_BUDGET_BYTES', 'must be a non-negative integer number of bytes');
    }
  }

  let forges = DEFAULT_FORGES;
  if (!blank(env.FORGES)) {
    const parsed = parseForges(env.FORGES!);
    if ('errors' in parsed) parsed.errors.forEach((e) => bad('FORGES', e));
    else forges = parsed.forges;
  }

  const fetchAllowHosts: string[] = [];
  if (!blank(env.FETCH_ALLOW_HOSTS)) {
    for (const entry of env.FETCH_ALLOW_HOSTS!.split(',').map((s) => s.trim()).filter(Boolean)) {
      // The fetcher's own grammar, so a typo stops the start instead of the first fetch.
      try {
        parseAllowedHost(entry);
        fetchAllowHosts.push(entry.toLowerCase());
      } catch (error) {
        if (!(error instanceof InvalidAllowHostError)) throw error;
        bad('FETCH_ALLOW_HOSTS', `"${entry}" is not host or host:port`);
      }
    }
  }

  let initToken: string | null = null;
  if (!blank(env.INIT_TOKEN)) {
    initToken = env.INIT_TOKEN!.trim();
    if (initToken.length < 16) bad('INIT_TOKEN', 'must be at least 16 characters');
  }

  let logLevel: LogLevel = nodeEnv === 'test' ? 'silent' : 'info';
  if (!blank(env.LOG_LEVEL)) {
    if (!LOG_LEVELS.includes(env.LOG_LEVEL!.trim() as LogLevel)) bad('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
    else logLevel = env.LOG_LEVEL!.trim() as LogLevel;
  }

  // `auto` picks at start: readable lines on a terminal, JSON lines otherwise (files, collectors).
  let logFormat: LogFormat = isProduction ? 'json' : 'auto';
  if (!blank(env.LOG_FORMAT)) {
    const value = env.LOG_FORMAT!.trim();
    if (!LOG_FORMATS.includes(value as LogFormat)) bad('LOG_FORMAT', `must be one of ${LOG_FORMATS.join(', ')}`);
    else logFormat = value as LogFormat;
  }

  let migrateOnStart = true;
  if (!blank(env.MIGRATE_ON_START)) {
    const parsed = parseBoolean(env.MIGRATE_ON_START!);
    if (parsed === null) bad('MIGRATE_ON_START', 'must be a boolean (1/0, true/false)');
    else migrateOnStart = parsed;
  }

  let embeddedAnalyzeIntervalMs = 60_000;
  if (!blank(env.EMBEDDED_ANALYZE_INTERVAL_MS)) {
    embeddedAnalyzeIntervalMs = Number(env.EMBEDDED_ANALYZE_INTERVAL_MS);
    // Node timers hold at most 2^31-1 ms; a longer delay would silently become 1 ms.
    if (!/^\d+$/.test(env.EMBEDDED_ANALYZE_INTERVAL_MS!.trim()) || embeddedAnalyzeIntervalMs < 100 || embeddedAnalyzeIntervalMs > 86_400_000) {
      bad('EMBEDDED_ANALYZE_INTERVAL_MS', 'must be an integer number of milliseconds from 100 to 86400000');
    }
  }

  let embeddedSharedBuffersMb: number | null = null;
  if (!blank(env.EMBEDDED_SHARED_BUFFERS_MB)) {
    embeddedSharedBuffersMb = Number(env.EMBEDDED_SHARED_BUFFERS_MB);
    if (!/^\d+$/.test(env.EMBEDDED_SHARED_BUFFERS_MB!.trim()) || embeddedSharedBuffersMb < 1 || embeddedSharedBuffersMb > 4096) {
      bad('EMBEDDED_SHARED_BUFFERS_MB', 'must be an integer number of MiB from 1 to 4096');
    }
  }

  // The embedded default is one small process with a 400 MiB budget under load; a server has room.
  let responseCacheMemoryMb = databaseUrl ? 64 : 16;
  if (!blank(env.RESPONSE_CACHE_MEMORY_MB)) {
    responseCacheMemoryMb = Number(env.RESPONSE_CACHE_MEMORY_MB);
    if (!/^\d+$/.test(env.RESPONSE_CACHE_MEMORY_MB!.trim()) || responseCacheMemoryMb < 1 || responseCacheMemoryMb > 4096) {
      bad('RESPONSE_CACHE_MEMORY_MB', 'must be an integer number of MiB from 1 to 4096');
    }
  }

  let responseCacheTtlSeconds = 30;
  if (!blank(env.RESPONSE_CACHE_TTL_S)) {
    responseCacheTtlSeconds = Number(env.RESPONSE_CACHE_TTL_S);
    if (!/^\d+$/.test(env.RESPONSE_CACHE_TTL_S!.trim()) || responseCacheTtlSeconds > 3600) bad('RESPONSE_CACHE_TTL_S', 'must be an integer number of seconds from 0 (off) to 3600');
  }

  // The `aud` a CI OIDC ID token must carry to be exchanged here; BASE_URL unless set.
  let oidcAudience: string | null = null;
  if (!blank(env.OIDC_AUDIENCE)) {
    oidcAudience = env.OIDC_AUDIENCE!.trim();
    if (oidcAudience.length > 255) bad('OIDC_AUDIENCE', 'must be at most 255 characters');
  }

  let trustProxy: TrustProxy = Object.freeze(['loopback']);
  if (!blank(env.TRUST_PROXY)) {
    const parsed = parseTrustProxy(env.TRUST_PROXY!);
    if (parsed === null) bad('TRUST_PROXY', 'must be true, false, a hop count (0 to 32) or a comma list of IP addresses, CIDRs, loopback, linklocal and uniquelocal');
    else trustProxy = parsed;
  }

  let httpRequestTimeoutMs = 60_000;
  if (!blank(env.HTTP_REQUEST_TIMEOUT_MS)) {
    httpRequestTimeoutMs = Number(env.HTTP_REQUEST_TIMEOUT_MS);
    if (!/^\d+$/.test(env.HTTP_REQUEST_TIMEOUT_MS!.trim()) || httpRequestTimeoutMs < 1000 || httpRequestTimeoutMs > 3_600_000) {
      bad('HTTP_REQUEST_TIMEOUT_MS', 'must be an integer number of milliseconds from 1000 to 3600000');
    }
  }

  let metricsToken: string | null = null;
  if (!blank(env.METRICS_TOKEN)) {
    metricsToken = env.METRICS_TOKEN!.trim();
    if (metricsToken.length < 16) bad('METRICS_TOKEN', 'must be at least 16 characters');
  }

  let shutdownGraceMs = 25_000;
  if (!blank(env.SHUTDOWN_GRACE_MS)) {
    shutdownGraceMs = Number(env.SHUTDOWN_GRACE_MS);
    if (!/^\d+$/.test(env.SHUTDOWN_GRACE_MS!.trim()) || shutdownGraceMs > 600_000) bad('SHUTDOWN_GRACE_MS', 'must be an integer number of milliseconds from 0 to 600000');
  }

  let webhookLeaseMs = 60_000;
  if (!blank(env.WEBHOOK_LEASE_MS)) {
    webhookLeaseMs = Number(env.WEBHOOK_LEASE_MS);
    if (!/^\d+$/.test(env.WEBHOOK_LEASE_MS!.trim()) || webhookLeaseMs < 1_000 || webhookLeaseMs > 3_600_000) {
      bad('WEBHOOK_LEASE_MS', 'must be an integer number of milliseconds from 1000 to 3600000');
    }
  }

  if (problems.length) throw new ConfigError(problems);

  if (!sessionSecret) {
    sessionSecret = options.persistSecrets
      ? persistedSecret(dataDir, 'session-secret', () => randomBytes(32).toString('hex'))
      : randomBytes(32).toString('hex');
  }
  if (keyEncryptionKey.length === 0) {
    const hex = options.persistSecrets
      ? persistedSecret(dataDir, 'key-encryption-key', () => randomBytes(32).toString('hex'))
      : randomBytes(32).toString('hex');
    keyEncryptionKey = Buffer.from(hex, 'hex');
  }

  return Object.freeze({
    nodeEnv,
    isProduction,
    port,
    baseUrl,
    dataDir,
    databaseUrl,
    databaseReadUrls: Object.freeze(databaseReadUrls),
    databaseReadProbeIntervalMs,
    redisUrl,
    sessionSecret,
    keyEncryptionKey,
    hashBudgetBytes,
    forges: Object.freeze([...forges]),
    fetchAllowHosts: Object.freeze(fetchAllowHosts),
    initToken,
    logLevel,
    logFormat,
    migrateOnStart,
    embeddedAnalyzeIntervalMs,
    embeddedSharedBuffersMb,
    responseCacheTtlSeconds,
    responseCacheMemoryMb,
    oidcAudience: oidcAudience ?? baseUrl,
    trustProxy,
    httpRequestTimeoutMs,
    metricsToken,
    shutdownGraceMs,
    webhookLeaseMs,
  });
}

/** Reads `.env` (when present) beneath the real environment, which wins. */
export function environmentWithDotenv(env: Environment, cwd: string): Environment {
  const path = join(cwd, '.env');
  if (!existsSync(path)) return env;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('dotenv') as typeof import('dotenv');
  return { ...parse(readFileSync(path)), ...env };
}
