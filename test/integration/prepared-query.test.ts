/**
 * Hot reads as named prepared statements (src/persistence/prepared-query), on PGlite by default and on
 * PostgreSQL with DATABASE_URL. The embedded engine has one session for every connection: a name
 * prepared through one connection is there for the next, which must run it rather than fail or
 * fall back to planning each time; a PostgreSQL server keeps one per connection.
 */
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../src/persistence/prepared-query';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;
const embedded = !process.env.DATABASE_URL;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
});
afterAll(() => opened?.close());

/** The statements prepared in the session of the connection that `runner` holds. */
async function preparedNames(label: string): Promise<{ name: string; statement: string }[]> {
  const runner = dataSource.createQueryRunner();
  try {
    return await runner.query(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE $1 ORDER BY name`, [`${label}\\_%`]);
  } finally {
    await runner.release();
  }
}

describe('preparedQuery', () => {
  it('runs a read as a named statement, on a connection of its own and through the pool alike', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      expect(await preparedQuery(runner.manager, 'pq_one', 'SELECT $1::int + 1 AS n', [41])).toEqual([{ n: 42 }]);
      const names = (await runner.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'pq\\_one\\_%'`)) as { name: string }[];
      expect(names).toHaveLength(1);
      expect(names[0].name).toMatch(/^pq_one_[0-9a-f]{12}$/);
    } finally {
      await runner.release();
    }
    expect(await preparedQuery(dataSource.manager, 'pq_one', 'SELECT $1::int + 1 AS n', [1])).toEqual([{ n: 2 }]);
  });

  it('gives one label with another text another name: a shared session never runs the wrong statement', async () => {
    expect(await preparedQuery(dataSource.manager, 'pq_two', 'SELECT $1::text AS v', ['a'])).toEqual([{ v: 'a' }]);
    expect(await preparedQuery(dataSource.manager, 'pq_two', `SELECT $1::text || '!' AS v`, ['a'])).toEqual([{ v: 'a!' }]);
    expect(await preparedQuery(dataSource.manager, 'pq_two', 'SELECT $1::text AS v', ['b'])).toEqual([{ v: 'b' }]);
  });

  (embedded ? it : it.skip)('embedded: every connection of the one session runs the statement prepared once, many at a time', async () => {
    const text = 'SELECT $1::int * 2 AS n';
    // Connections the pool opens and closes meanwhile each meet the name already prepared.
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => preparedQuery(dataSource.manager, 'pq_shared', text, [i])));
    expect(results).toEqual(Array.from({ length: 24 }, (_, i) => [{ n: i * 2 }]));
    // A second pool on the same socket (as after the pool reconnects, or beside the operator CLI):
    // its connection finds the name taken and runs it as its own (with a fallback to unnamed reads
    // instead, it would never know the statement and plan every read).
    const other = new DataSource(dataSource.options);
    await other.initialize();
    try {
      expect(await preparedQuery(other.manager, 'pq_shared', text, [50])).toEqual([{ n: 100 }]);
      const runner = other.createQueryRunner();
      try {
        const client = (await runner.connect()) as { connection: { parsedStatements: Record<string, string> } };
        expect(Object.values(client.connection.parsedStatements)).toContain(text);
      } finally {
        await runner.release();
      }
    } finally {
      await other.destroy();
    }
    const names = await preparedNames('pq_shared');
    expect(names).toHaveLength(1);
    expect(names[0].statement).toBe(text);
  });
});
