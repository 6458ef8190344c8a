import type { DataSourceOptions } from 'typeorm';
import type { PgConnectionTarget } from './embedded/embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/**
 * Set on every connection at startup. The catalogue's typo match (`<%`, answered by the trigram
 * index) forgives one wrong letter in a short word at word similarity 0.5; pg_trgm's default
 * of 0.6 does not (`mardown` → `markdown`). No JIT: the registry's reads are short index lookups,
 * and JIT starts on the planner's cost estimate alone: a stale estimate (a change log that held a
 * seed's 100k rows) had every catalogue page read compile for 25-50 ms to run for 0.3.
 */
const SESSION_OPTIONS = '-c pg_trgm.word_similarity_threshold=0.5 -c jit=off';

/**
 * How long a connection may take to open and a statement to run (0: no limit), and the pg Client
 * class the pool opens connections with (the primary's reports and refuses while the database is
 * down: database-availability.ts).
 */
export interface ConnectionLimits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  clientClass?: unknown;
}

/** Operator commands and tests: pg's own client, the connect timeout the server has by default, no statement limit. */
export const UNLIMITED_STATEMENTS: ConnectionLimits = { connectTimeoutMs: 5_000, statementTimeoutMs: 0 };

/** PGlite runs one statement at a time in this process, with no timer to cancel one: no statement limit there. */
function connectionExtra(limits: ConnectionLimits, server: boolean) {
  return {
    connectionTimeoutMillis: limits.connectTimeoutMs,
    options:
      server && limits.statementTimeoutMs > 0 ? `${SESSION_OPTIONS} -c statement_timeout=${limits.statementTimeoutMs}` : SESSION_OPTIONS,
    ...(limits.clientClass ? { Client: limits.clientClass } : {}),
  };
}

export type DatabaseTarget = { url: string } | { embedded: PgConnectionTarget };

/** Each pool names itself in pg_stat_activity, so an operator sees which queries reach a replica. */
export const PRIMARY_APPLICATION_NAME = 'plugin-registry';
export const REPLICA_APPLICATION_NAME = 'plugin-registry-replica';

const COMMON = {
  type: 'postgres' as const,
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'schema_migration',
  migrationsTransactionMode: 'each' as const,
  synchronize: false,
  migrationsRun: false,
  logging: false,
  uuidExtension: 'pgcrypto' as const,
};

/**
 * TCP keepalive: a connection whose peer vanished (the mirror follower's, holding its advisory
 * lock, above all) is found dead within about a minute, not the OS default of two hours.
 */
function serverPool(limits: ConnectionLimits) {
  return {
    poolSize: 10,
    extra: { ...connectionExtra(limits, true), idleTimeoutMillis: 30_000, keepAlive: true, keepAliveInitialDelayMillis: 30_000 },
  };
}

/** The TypeORM options for either a real server (URL) or the embedded engine's socket. */
export function dataSourceOptions(target: DatabaseTarget, limits: ConnectionLimits = UNLIMITED_STATEMENTS): DataSourceOptions {
  if ('url' in target) return { ...COMMON, ...serverPool(limits), url: target.url, applicationName: PRIMARY_APPLICATION_NAME };
  // PGlite is one backend: the pool holds one connection; the socket multiplexer keeps a
  // transaction's statements together.
  return {
    ...COMMON,
    host: target.embedded.host,
    port: target.embedded.port,
    username: target.embedded.user,
    database: target.embedded.database,
    poolSize: 1,
    extra: connectionExtra(limits, false),
  };
}

/**
 * A streaming replica (DATABASE_READ_URLS) as a DataSource of its own, so one that is down never
 * holds up the primary or the start (src/persistence/read-replicas.ts). Read-only: it never
 * installs extensions (the primary's are replayed) and never migrates.
 */
export function replicaDataSourceOptions(url: string, limits: ConnectionLimits = UNLIMITED_STATEMENTS): DataSourceOptions {
  return { ...COMMON, ...serverPool(limits), url, applicationName: REPLICA_APPLICATION_NAME, installExtensions: false, migrations: [] };
}
