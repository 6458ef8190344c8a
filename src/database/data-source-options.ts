import type { DataSourceOptions } from 'typeorm';
import type { PgConnectionTarget } from './embedded/embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/**
 * Set on every connection at startup. The catalogue's typo match (`<%`, answered by the trigram
 * index) forgives one wrong letter in a short word at word similarity 0.5; pg_trgm's default
 * of 0.6 does not (`mardown` → `markdown`).
 */
const SESSION_OPTIONS = '-c pg_trgm.word_similarity_threshold=0.5';

/** `readUrls`: streaming replicas that catalogue reads may use (see catalogue-reads.ts). */
export type DatabaseTarget = { url: string; readUrls?: readonly string[] } | { embedded: PgConnectionTarget };

/** Each pool names itself in pg_stat_activity, so an operator sees which queries reach a replica. */
export const PRIMARY_APPLICATION_NAME = 'plugin-registry';
export const REPLICA_APPLICATION_NAME = 'plugin-registry-replica';

/** The TypeORM options for either a real server (URL) or the embedded engine's socket. */
export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  const common = {
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
  if ('url' in target) {
    const server = { ...common, poolSize: 10, extra: { connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, options: SESSION_OPTIONS } };
    if (!target.readUrls?.length) return { ...server, url: target.url, applicationName: PRIMARY_APPLICATION_NAME };
    return {
      ...server,
      // TypeORM sends every SELECT without a query runner to a replica by default; here nothing
      // goes there unless a catalogue read asks (CatalogueReads), so writes are read back where made.
      replication: {
        master: { url: target.url, applicationName: PRIMARY_APPLICATION_NAME },
        slaves: target.readUrls.map((url) => ({ url, applicationName: REPLICA_APPLICATION_NAME })),
        defaultMode: 'master',
      },
    };
  }
  // PGlite is one backend: the pool holds one connection; the socket multiplexer keeps a
  // transaction's statements together.
  return {
    ...common,
    host: target.embedded.host,
    port: target.embedded.port,
    username: target.embedded.user,
    database: target.embedded.database,
    poolSize: 1,
    extra: { connectionTimeoutMillis: 5_000, options: SESSION_OPTIONS },
  };
}
