import { resolve } from 'node:path';
import type { AppConfig } from './config.types';
import { boolean, commaList, integer, map, text, url } from './parsers';
import { type ConfigArea, type EnvironmentReader, Invalid } from './variable';

/**
 * The embedded engine's shared_buffers when EMBEDDED_SHARED_BUFFERS_MB is unset (what 16 MB saves:
 * src/database/embedded/engine-settings.js). Here rather than beside the engine, which sits above
 * every feature, so that configuration, at the bottom, imports nothing from above.
 */
export const DEFAULT_SHARED_BUFFERS_MB = 16;

const postgresUrl = url('a postgres:// URL', ['postgres:', 'postgresql:']);

const DATA_DIR = {
  name: 'DATA_DIR',
  parser: { ...map(text(), (path) => resolve(path)), type: 'path, from the working directory' },
  default: './data',
  description: 'Where the embedded database, generated development secrets and the runtime socket live.',
};
const DATABASE_URL = {
  name: 'DATABASE_URL',
  parser: postgresUrl,
  unset: 'the embedded PGlite under `DATA_DIR`',
  description: 'PostgreSQL server (the production path).',
};
const DATABASE_READ_URLS = {
  name: 'DATABASE_READ_URLS',
  // The entry is not echoed back: a URL may carry a password.
  parser: commaList('comma list of postgres:// URLs', (entry) =>
    postgresUrl.parse(entry) instanceof Invalid ? new Invalid('must be a comma list of postgres:// URLs') : entry,
  ),
  default: '',
  description:
    'Streaming replicas of `DATABASE_URL` (only with it) that serve anonymous catalogue reads; empty: every query goes to `DATABASE_URL`.',
};
const DATABASE_READ_PROBE_INTERVAL_MS = {
  name: 'DATABASE_READ_PROBE_INTERVAL_MS',
  parser: integer({ min: 100, max: 3_600_000, unit: 'milliseconds' }),
  default: '10000',
  description:
    'How often each read replica is checked: one that is down (at start too) is taken back once it answers; meanwhile its reads go to `DATABASE_URL`.',
};
const DATABASE_CONNECT_TIMEOUT_MS = {
  name: 'DATABASE_CONNECT_TIMEOUT_MS',
  parser: integer({ min: 100, max: 600_000, unit: 'milliseconds' }),
  default: '5000',
  description:
    'How long opening a database connection (or waiting for a free one in the pool) may take before the request answers 503. Once a connection has failed this way, new ones are refused at once until a probe reaches the database again.',
};
const DATABASE_STATEMENT_TIMEOUT_MS = {
  name: 'DATABASE_STATEMENT_TIMEOUT_MS',
  parser: integer({ min: 0, max: 86_400_000, unit: 'milliseconds' }),
  default: '60000',
  description:
    "PostgreSQL server only: the server's `statement_timeout` for the serving process's connections, so no request holds a connection longer; 0: no limit. Migrations and operator commands run without it.",
};
const MIGRATE_ON_START = { name: 'MIGRATE_ON_START', parser: boolean, default: '1', description: 'Apply pending migrations at start.' };
const EMBEDDED_ANALYZE_INTERVAL_MS = {
  name: 'EMBEDDED_ANALYZE_INTERVAL_MS',
  // Node timers hold at most 2^31-1 ms; a longer delay would silently become 1 ms.
  parser: integer({ min: 100, max: 86_400_000, unit: 'milliseconds' }),
  default: '60000',
  description: 'Embedded database only: how often `ANALYZE` refreshes planner statistics (PGlite has no autovacuum).',
};
const EMBEDDED_SHARED_BUFFERS_MB = {
  name: 'EMBEDDED_SHARED_BUFFERS_MB',
  parser: integer({ min: 1, max: 4096, unit: 'MiB' }),
  unset: `the engine's default, ${DEFAULT_SHARED_BUFFERS_MB}`,
  description: "Embedded database only: the engine's page cache (`shared_buffers`); each MiB is resident once read.",
};

export const DATABASE: ConfigArea = {
  title: 'Database',
  variables: [
    DATA_DIR,
    DATABASE_URL,
    DATABASE_READ_URLS,
    DATABASE_READ_PROBE_INTERVAL_MS,
    DATABASE_CONNECT_TIMEOUT_MS,
    DATABASE_STATEMENT_TIMEOUT_MS,
    MIGRATE_ON_START,
    EMBEDDED_ANALYZE_INTERVAL_MS,
    EMBEDDED_SHARED_BUFFERS_MB,
  ],
};

export type DatabaseConfig = Pick<
  AppConfig,
  | 'dataDir'
  | 'databaseUrl'
  | 'databaseReadUrls'
  | 'databaseReadProbeIntervalMs'
  | 'databaseConnectTimeoutMs'
  | 'databaseStatementTimeoutMs'
  | 'migrateOnStart'
  | 'embeddedAnalyzeIntervalMs'
  | 'embeddedSharedBuffersMb'
>;

export function readDatabase(reader: EnvironmentReader): DatabaseConfig {
  const databaseUrl = reader.read(DATABASE_URL) ?? null;
  if (reader.isSet(DATABASE_READ_URLS) && !databaseUrl)
    reader.bad(DATABASE_READ_URLS, 'needs DATABASE_URL (the embedded database has no replicas)');
  return {
    dataDir: reader.read(DATA_DIR),
    databaseUrl,
    databaseReadUrls: reader.read(DATABASE_READ_URLS),
    databaseReadProbeIntervalMs: reader.read(DATABASE_READ_PROBE_INTERVAL_MS),
    databaseConnectTimeoutMs: reader.read(DATABASE_CONNECT_TIMEOUT_MS),
    databaseStatementTimeoutMs: reader.read(DATABASE_STATEMENT_TIMEOUT_MS),
    migrateOnStart: reader.read(MIGRATE_ON_START),
    embeddedAnalyzeIntervalMs: reader.read(EMBEDDED_ANALYZE_INTERVAL_MS),
    embeddedSharedBuffersMb: reader.read(EMBEDDED_SHARED_BUFFERS_MB) ?? null,
  };
}
