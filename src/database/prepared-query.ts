import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs a hot read as a named prepared statement: PostgreSQL plans it once per connection instead
 * of on every call (for the catalogue's page read, planning cost more than running). Through the
 * manager's own connection when it holds one (a replica's query runner), else through its pool.
 */
export async function preparedQuery<Row extends QueryResultRow>(manager: EntityManager, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const runner = manager.queryRunner;
  if (runner && !runner.isReleased) {
    const client = (await runner.connect()) as PoolClient;
    return (await client.query<Row>({ name, text, values })).rows;
  }
  const pool = (manager.connection.driver as PostgresDriver).master as Pool;
  return (await pool.query<Row>({ name, text, values })).rows;
}
