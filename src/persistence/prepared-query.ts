import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs a hot read as a named prepared statement: PostgreSQL plans it once per connection instead
 * of on every call (for the catalogue's page read, planning cost more than running). Through the
 * manager's own connection when it holds one (a replica's query runner), else through its pool.
 *
 * The embedded engine has one session, which every socket connection shares: a name prepared
 * through one connection exists for all of them, closed ones' included. There a connection that
 * meets its name already prepared (duplicate_prepared_statement) takes the session's statement as
 * its own and runs it: planning is the larger share of a catalogue read on PGlite, which runs on
 * the server's own thread. Behind anything else that shares sessions (PGlite reached over TCP, a
 * transaction-mode pooler) the server refuses the name (exists already, or not in this session)
 * and the read runs unnamed.
 */
export async function preparedQuery<Row extends QueryResultRow>(
  manager: EntityManager,
  label: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const name = statementName(label, text);
  const embedded = !(manager.connection.options as PostgresDataSourceOptions).url;
  try {
    const runner = manager.queryRunner;
    if (runner && !runner.isReleased) return await named<Row>((await runner.connect()) as PoolClient, name, text, values, embedded);
    const pool = (manager.connection.driver as PostgresDriver).master as Pool;
    if (!embedded) return (await pool.query<Row>({ name, text, values })).rows;
    const client = await pool.connect();
    try {
      return await named<Row>(client, name, text, values, embedded);
    } finally {
      client.release();
    }
  } catch (error) {
    if (!SESSION_SHARED.has(errorCode(error))) throw error;
    return manager.query(text, values);
  }
}

/** What pg keeps of the statements a connection has prepared (not part of its typed surface). */
interface ParsedStatements {
  connection?: { parsedStatements?: Record<string, string> };
}

async function named<Row extends QueryResultRow>(
  client: PoolClient,
  name: string,
  text: string,
  values: unknown[],
  embedded: boolean,
): Promise<Row[]> {
  try {
    return (await client.query<Row>({ name, text, values })).rows;
  } catch (error) {
    const parsed = (client as unknown as ParsedStatements).connection?.parsedStatements;
    if (!embedded || errorCode(error) !== DUPLICATE_PREPARED_STATEMENT || !parsed) throw error;
    // Prepared by another connection of the one session; the name carries a digest of its text.
    parsed[name] = text;
    return (await client.query<Row>({ name, text, values })).rows;
  }
}

const names = new Map<string, { text: string; name: string }>();

/** `label` and a digest of `text`: in a session that others share, one name never means two statements. */
function statementName(label: string, text: string): string {
  const known = names.get(label);
  if (known?.text === text) return known.name;
  const name = `${label}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
  names.set(label, { text, name });
  return name;
}

const errorCode = (error: unknown): string => (error as { code?: string }).code ?? '';
const DUPLICATE_PREPARED_STATEMENT = '42P05';

/** duplicate_prepared_statement, invalid_sql_statement_name: the session is not this connection's own. */
const SESSION_SHARED = new Set(['42P05', '26000']);
