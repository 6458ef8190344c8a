/**
 * DATABASE_READ_URLS: anonymous catalogue reads go to a streaming replica, writes and the reads
 * that must see them go to the primary, and a replica that stops answering sends reads back to
 * the primary. The replica is a pg_basebackup of the machine's cluster on its own port.
 */
import request from 'supertest';
import { REPLICA_APPLICATION_NAME } from '../../src/database/data-source-options';
import { ScratchPostgres, scratchPostgresUnavailable } from '../support/scratch-postgres';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const skipReason = !process.env.DATABASE_URL ? 'needs DATABASE_URL (a replica streams from a real server)' : scratchPostgresUnavailable();
const describeWithServer = skipReason ? describe.skip : describe;
if (skipReason) console.info(`read-replica tests skipped: ${skipReason}`);

const DEADLINE_MS = 30_000;

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeWithServer('catalogue reads on a read replica', () => {
  let db: TestDatabase;
  let replica: ScratchPostgres;
  let app: TestApp;
  let database: string;

  const publicKinds = async () => ((await request(app.url).get('/api/kinds').expect(200)).body.kinds as { key: string }[]).map((k) => k.key);
  const replicaConnections = async (server: { query: ScratchPostgres['query'] }) =>
    Number(
      (await server.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [database, REPLICA_APPLICATION_NAME]))[0].n,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    const primary = new URL(db.env.DATABASE_URL);
    database = primary.pathname.slice(1);
    replica = await ScratchPostgres.replicaOf({ host: primary.hostname, port: Number(primary.port || 5432) });
    app = await startTestApp({ DATABASE_READ_URLS: replica.url(database), RESPONSE_CACHE_TTL_S: '0' }, db);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await replica?.remove();
    await db?.drop();
  });

  it('serves the public kinds list from the replica once it has replayed the write', async () => {
    await app.database.dataSource.query(`INSERT INTO kind (key, label, enabled, extension_fields) VALUES ('theme', 'Themes', true, '[]')`);
    await eventually(async () => (await publicKinds()).includes('theme'), 'the replica to replay the new kind');

    // The other anonymous catalogue reads run on the (read-only) replica too.
    for (const path of ['/api/plugins', '/api/plugins?search=mardown', '/api/stats', '/api/requests']) await request(app.url).get(path).expect(200);
    await request(app.url).get('/api/plugins/no-such-plugin').expect(404);
    await request(app.url).get('/api/plugins/no-such-plugin/latest').expect(404);

    expect(await replicaConnections(replica)).toBeGreaterThan(0);
    const onPrimary = await app.database.dataSource.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [database, REPLICA_APPLICATION_NAME]);
    expect(onPrimary[0].n).toBe(0);
  });

  it('keeps writes and what an admin reads back on the primary while the replica lags', async () => {
    const { jwt } = await userWithSession(app, 'replica-admin', 'admin');
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      const created = await request(app.url).post('/api/admin/kinds').set('Authorization', `Bearer ${jwt}`).send({ key: 'sound', label: 'Sounds' }).expect(201);
      expect(created.body.key).toBe('sound');
      const adminList = await request(app.url).get('/api/admin/kinds').set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(JSON.stringify(adminList.body)).toContain('"sound"');
      // The anonymous list is the replica's, which has not replayed the insert yet.
      expect(await publicKinds()).toEqual(['theme']);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    await eventually(async () => (await publicKinds()).includes('sound'), 'the replica to catch up after resuming');
  });

  it('falls back to the primary when the replica stops answering', async () => {
    await replica.stop('immediate');
    // A pooled connection to the dead replica may fail one read before the pool drops it.
    await eventually(async () => (await request(app.url).get('/api/kinds')).status === 200, 'reads to come back from the primary');
    for (let i = 0; i < 5; i += 1) expect(await publicKinds()).toEqual(['sound', 'theme']);
  });
});
