import type { DataSourceOptions } from 'typeorm';
import type { PgConnectionTarget } from './embedded/embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export type DatabaseTarget = { url: string } | { embedded: PgConnectionTarget };

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
    return {
      ...common,
      url: target.url,
      poolSize: 10,
      extra: { connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 },
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
    extra: { connectionTimeoutMillis: 5_000 },
  };
}
