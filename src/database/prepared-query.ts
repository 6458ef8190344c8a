import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs a hot read as a named prepared statement: PostgreSQL plans it once per connection instead
 * of on every call (for the catalogue's page read, planning cost more than running). Through the
 * manager's own connection when it holds one (a replica's query runner), else through its pool.
 *
 * Not on the embedded engine: every socket connection there shares PGlite's one session, so a
 * name prepared by a connection the pool has since closed would still exist for the next one.
 * Behind anything else that shares sessions (PGlite reached over TCP, a transaction-mode pooler),
 * the server refuses the name (exists already, or not in this session) and the read runs unnamed.
 */
export async function preparedQuery<Row extends QueryResultRow>(manager: EntityManager, name: string, text: string, values: unknown[]): Promise<Row[]> {
  if (!(manager.connection.options as PostgresDataSourceOptions).url) return manager.query(text, values);
  try {
    const runner = manager.queryRunner;
    if (runner && !runner.isReleased) {
      const client = (await runner.connect()) as PoolClient;
      return (await client.query<Row>({ name, text, values })).rows;
    }
    const pool = (manager.connection.driver as PostgresDriver).master as Pool;
    return (await pool.query<Row>({ name, text, values })).rows;
  } catch (error) {
    if (!SESSION_SHARED.has((error as { code?: string }).code ?? '')) throw error;
    return manager.query(text, values);
  }
}

/** duplicate_prepared_statement, invalid_sql_statement_name: the session is not this connection's own. */
const SESSION_SHARED = new Set(['42P05', '26000']);
