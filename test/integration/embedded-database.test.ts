import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';

describe('embedded PGlite served over a socket', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;

  const client = async () => {
    const c = new Client(database.target);
    await c.connect();
    return c;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-embedded-'));
    database = await openEmbeddedDatabase({ dataDir, mode: 'own' });
    const c = await client();
    await c.query('CREATE TABLE item (label text NOT NULL)');
    await c.end();
  });

  afterAll(async () => {
    await database?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('isolates two concurrent transactions: the rolled-back one leaves no rows', async () => {
    const first = await client();
    const second = await client();
    try {
      await first.query('BEGIN');
      await first.query("INSERT INTO item VALUES ('rolled-back')");
      // The second transaction starts while the first is open; it must neither see nor keep
      // the first one's rows.
      const secondWork = (async () => {
        await second.query('BEGIN');
        const seen = await second.query("SELECT count(*)::int AS n FROM item WHERE label = 'rolled-back'");
        await second.query("INSERT INTO item VALUES ('committed')");
        await second.query('COMMIT');
        return seen.rows[0].n as number;
      })();
      await first.query('ROLLBACK');
      expect(await secondWork).toBe(0);

      const rows = await first.query('SELECT label FROM item ORDER BY label');
      expect(rows.rows.map((r) => r.label)).toEqual(['committed']);
    } finally {
      await first.end();
      await second.end();
    }
  });

  it('keeps the main event loop free while a slow query runs', async () => {
    const c = await client();
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      // A deliberately slow statement (millions of rows generated and summed).
      await c.query('SELECT sum(g) FROM generate_series(1, 5000000) g');
      clearInterval(timer);
      // Had the engine run on this thread, the interval could not have fired during the query.
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await c.end();
    }
  });

  it('refuses a second owner of the same files', async () => {
    await expect(openEmbeddedDatabase({ dataDir, mode: 'own', waitMs: 300 })).rejects.toThrow(/already owns|in use/);
  });

  it('pins the planner settings of a stock PostgreSQL server', async () => {
    const c = await client();
    try {
      const result = await c.query("SELECT current_setting('random_page_cost') AS r, current_setting('effective_cache_size') AS e");
      expect(result.rows[0]).toEqual({ r: '4', e: '4GB' });
    } finally {
      await c.end();
    }
  });
});
