/**
 * DATABASE_READ_URLS: anonymous catalogue reads go to a streaming replica, writes and the reads
 * that must see them go to the primary, and a replica that stops answering sends reads back to
 * the primary. A replica that is down never stops the start: it is reported down in
 * /health/ready and taken back once it answers. The replica is a pg_basebackup of a scratch
 * primary on its own port, or a TCP proxy onto the suite's server that a test opens when it chooses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { REPLICA_APPLICATION_NAME } from '../../src/database/data-source-options';
import { freePort } from '../support/free-port';
import { ScratchPostgres, scratchPostgresUnavailable } from '../support/scratch-postgres';
import { userWithSession } from '../support/sessions';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const needsServer = !process.env.DATABASE_URL ? 'needs DATABASE_URL (the embedded database has no replicas)' : null;
const skipReason = needsServer ?? scratchPostgresUnavailable();
const describeWithServer = skipReason ? describe.skip : describe;
const describeWithPrimary = needsServer ? describe.skip : describe;
if (skipReason) console.info(`read-replica tests skipped: ${skipReason}`);

interface ReadyBody {
  status: string;
  database: string;
  replicas?: { index: number; state: string; since: number }[];
}

async function readiness(app: TestApp): Promise<{ status: number; body: ReadyBody }> {
  const response = await request(app.url).get('/health/ready');
  return { status: response.status, body: response.body as ReadyBody };
}

/** The last statement of each pool connection that names itself as the replica pool, on `server`. */
async function replicaStatements(url: string, database: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ query: string }>(
      'SELECT query FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [database, REPLICA_APPLICATION_NAME],
    );
    return rows.map((row) => row.query);
  } finally {
    await client.end();
  }
}

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

  const publicKinds = async () =>
    ((await request(app.url).get('/api/kinds').expect(200)).body.kinds as { key: string }[]).map((k) => k.key);
  const replicaConnections = async (server: { query: ScratchPostgres['query'] }) =>
    Number(
      (
        await server.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
          database,
          REPLICA_APPLICATION_NAME,
        ])
      )[0].n,
    );

  let primary: ScratchPostgres;

  beforeAll(async () => {
    // A primary of its own: the machine's shared cluster need not accept replication connections.
    primary = await ScratchPostgres.fresh();
    database = 'registry';
    await primary.query(`CREATE DATABASE ${database}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-replica-'));
    db = {
      env: {
        DATABASE_URL: primary.url(database),
        DATA_DIR: dataDir,
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      },
      kind: 'postgres',
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
    replica = await ScratchPostgres.replicaOf({ host: '127.0.0.1', port: primary.port });
    app = await startTestApp(
      { DATABASE_READ_URLS: replica.url(database), RESPONSE_CACHE_TTL_S: '0', DATABASE_READ_PROBE_INTERVAL_MS: '200' },
      db,
    );
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await replica?.remove();
    await primary?.remove();
    await db?.drop();
  });

  it('serves the public kinds list from the replica once it has replayed the write', async () => {
    await app.database.dataSource.query(`INSERT INTO kind (key, label, enabled, extension_fields) VALUES ('theme', 'Themes', true, '[]')`);
    await eventually(async () => (await publicKinds()).includes('theme'), 'the replica to replay the new kind');

    // The other anonymous catalogue reads run on the (read-only) replica too.
    for (const path of ['/api/plugins', '/api/plugins?search=mardown', '/api/stats', '/api/requests'])
      await request(app.url).get(path).expect(200);
    await request(app.url).get('/api/plugins/no-such-plugin').expect(404);
    await request(app.url).get('/api/plugins/no-such-plugin/latest').expect(404);

    expect(await replicaConnections(replica)).toBeGreaterThan(0);
    const onPrimary = await app.database.dataSource.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [database, REPLICA_APPLICATION_NAME],
    );
    expect(onPrimary[0].n).toBe(0);
  });

  it('keeps writes and what an admin reads back on the primary while the replica lags', async () => {
    const { jwt } = await userWithSession(app, 'replica-admin', 'admin');
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      const created = await request(app.url)
        .post('/api/admin/kinds')
        .set('Authorization', `Bearer ${jwt}`)
        .send({ key: 'sound', label: 'Sounds' })
        .expect(201);
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

  it('falls back to the primary when the replica stops answering, reports it down, and takes it back once it answers', async () => {
    await replica.stop('immediate');
    // The first read after the crash finds the replica gone and runs again on the primary.
    for (let i = 0; i < 5; i += 1) expect(await publicKinds()).toEqual(['sound', 'theme']);
    await eventually(async () => (await readiness(app)).body.replicas?.[0]?.state === 'down', 'the replica to be reported down');
    expect(await readiness(app)).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });

    await replica.start();
    await eventually(async () => (await readiness(app)).body.replicas?.[0]?.state === 'up', 'the replica to be taken back');
    expect(await publicKinds()).toEqual(['sound', 'theme']);
    expect(await replicaConnections(replica)).toBeGreaterThan(0);
  });

  it('starts while the replica is stopped, and uses it once it answers', async () => {
    await replica.stop('fast');
    const second = await startTestApp(
      { DATABASE_READ_URLS: replica.url(database), RESPONSE_CACHE_TTL_S: '0', DATABASE_READ_PROBE_INTERVAL_MS: '200' },
      db,
    );
    try {
      expect(await readiness(second)).toMatchObject({
        status: 200,
        body: { status: 'ok', database: 'up', replicas: [{ index: 0, state: 'down' }] },
      });
      await request(second.url).get('/api/kinds').expect(200);

      await replica.start();
      await eventually(async () => (await readiness(second)).body.replicas?.[0]?.state === 'up', 'the replica to be taken back');
      // pg_stat_activity keeps each connection's last statement, and the health probe's SELECT 1 can
      // come after the catalogue's on the same connection: ask again until the catalogue's is seen.
      await eventually(async () => {
        await request(second.url).get(`/api/plugins?search=replica-probe-${Date.now()}`).expect(200);
        return (await replicaStatements(replica.url(database), database)).some((sql) => /\bplugin\b/.test(sql));
      }, 'a catalogue read on the replica');
    } finally {
      await second.close();
    }
  });
});

describeWithPrimary('a read replica that is down when the server starts', () => {
  let db: TestDatabase;
  let app: TestApp;
  let proxy: TcpProxy;
  let database: string;
  let primaryUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    primaryUrl = db.env.DATABASE_URL!;
    const primary = new URL(primaryUrl);
    database = primary.pathname.slice(1);
    // Nothing listens on the replica's port yet: the proxy onto the primary opens there later.
    proxy = new TcpProxy({ host: primary.hostname, port: Number(primary.port || 5432) });
    proxy.port = await freePort();
    const replicaUrl = new URL(primaryUrl);
    replicaUrl.port = String(proxy.port);
    app = await startTestApp(
      { DATABASE_READ_URLS: replicaUrl.toString(), RESPONSE_CACHE_TTL_S: '0', DATABASE_READ_PROBE_INTERVAL_MS: '200' },
      db,
    );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await db?.drop();
  });

  it('starts ready with the replica reported down, and serves catalogue reads from the primary', async () => {
    const ready = await readiness(app);
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ok', database: 'up', migrations: 'applied', replicas: [{ index: 0, state: 'down', since: expect.any(Number) }] },
    });
    for (const path of ['/api/kinds', '/api/plugins', '/api/plugins?search=markdown', '/api/stats', '/api/requests'])
      await request(app.url).get(path).expect(200);
    await request(app.url).get('/api/plugins/no-such-plugin').expect(404);
    expect(await replicaStatements(primaryUrl, database)).toEqual([]);
  });

  it('takes the replica back once it answers and sends catalogue reads there', async () => {
    await proxy.start();
    await eventually(async () => (await readiness(app)).body.replicas?.[0]?.state === 'up', 'the replica to be taken back');
    expect((await readiness(app)).status).toBe(200);

    // The replica pool's connections (through the proxy) ran the catalogue query (asked again while
    // the probe's SELECT 1 is the last statement seen on the connection).
    await eventually(async () => {
      await request(app.url).get(`/api/plugins?search=taken-back-${Date.now()}`).expect(200);
      return (await replicaStatements(primaryUrl, database)).some((sql) => /\bplugin\b/.test(sql));
    }, 'a catalogue read on the replica');
  });

  it('marks it down again when it goes away, reads staying up on the primary', async () => {
    await proxy.stop();
    for (let i = 0; i < 5; i += 1) await request(app.url).get('/api/kinds').expect(200);
    await eventually(async () => (await readiness(app)).body.replicas?.[0]?.state === 'down', 'the replica to be reported down');
    expect((await readiness(app)).status).toBe(200);
  });
});
