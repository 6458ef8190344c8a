import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { eventually } from '../support/eventually';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The follower loses its lock mid-pass (its lock connection is terminated while it waits on
 * upstream); the other instance takes over and moves on. When the first one's read comes back,
 * it must write nothing: no change applied twice, the cursor never moved backwards. PostgreSQL
 * only (the embedded engine has one process, one follower).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('a mirror follower that lost its lock mid-pass', () => {
  let up: PublishWorld;
  let db: TestDatabase;
  let proxy: Server;
  let first: TestApp;
  let second: TestApp;
  let token: string;
  const admins = new Map<TestApp, { Authorization: string }>();
  /** Upstream's answer to the first read of `path` is held until `open` is called. */
  const gate = { path: '', arrived: false, open: null as null | (() => void) };

  const sql = async <T>(query: string, parameters: unknown[] = []) => (await second.database.dataSource.query(query, parameters)) as T[];
  const publish = (slug: string) =>
    up
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: up.forge.asset(`/acme/${slug}/1.0.0/${slug}.zip`, { size: 300 }) }],
        repoUrl: `${up.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const status = async (app: TestApp) =>
    (await request(app.url).get('/api/admin/mirror').set(admins.get(app)!).expect(200)).body as {
      following: boolean;
      cursor: string | null;
    };
  const copied = (slug: string, yanked = false) =>
    eventually(async () => {
      const res = await request(second.url).get(`/api/plugins/${slug}/releases/1.0.0`);
      return res.status === 200 && res.body.yanked === yanked ? true : null;
    }, `${slug} on the mirror`);
  const audited = async (action: string, slug: string) =>
    (await sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_entry WHERE action = $1 AND slug = $2', [action, slug]))[0].n;
  const mirrorOf = async (url: string, login: string) => {
    const app = await startTestApp({ MIRROR_OF: url, MIRROR_POLL_INTERVAL_MS: '100', FETCH_ALLOW_HOSTS: '127.0.0.1' }, db);
    admins.set(app, { Authorization: `Bearer ${(await userWithSession(app, login, 'admin')).jwt}` });
    return app;
  };

  beforeAll(async () => {
    up = await publishWorld();
    token = (await up.tokenFor('fence-author', ['publish:*', 'yank:*'])).token;
    proxy = createServer((req, res) => {
      void (async () => {
        const path = req.url ?? '/';
        if (gate.path === path && !gate.arrived) {
          gate.arrived = true;
          await new Promise<void>((resolve) => (gate.open = resolve));
        }
        const answer = await fetch(`${up.app.url}${path}`, { headers: { accept: req.headers.accept ?? '*/*' } });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((error: Error) => res.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    db = await createTestDatabase();
    first = await mirrorOf(proxyUrl, 'fence-first');
    await eventually(async () => ((await status(first)).following ? true : null), 'the first instance following');
    second = await mirrorOf(proxyUrl, 'fence-second');
    // Every move of the cursor, as the database saw it.
    await sql('CREATE TABLE test_cursor_move (at serial PRIMARY KEY, old_cursor varchar, new_cursor varchar)');
    await sql(`CREATE FUNCTION test_log_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_cursor_move (old_cursor, new_cursor) VALUES (OLD.cursor, NEW.cursor); RETURN NEW; END $$`);
    await sql(
      'CREATE TRIGGER test_log_cursor AFTER UPDATE ON mirror_state FOR EACH ROW WHEN (OLD.cursor IS DISTINCT FROM NEW.cursor) EXECUTE FUNCTION test_log_cursor()',
    );
  });
  afterAll(async () => {
    gate.open?.();
    await second?.close();
    await first?.close();
    await db?.drop();
    await new Promise((resolve) => proxy?.close(resolve));
    await up?.close();
  });

  it('abandons the pass: nothing applied twice, the cursor never moves backwards', async () => {
    await publish('fence-one');
    await copied('fence-one');

    // The first instance reads fence-slow's plugin page, and waits for it.
    gate.path = '/api/plugins/fence-slow';
    await publish('fence-slow');
    await eventually(async () => (gate.arrived ? true : null), 'the first instance reading fence-slow');
    expect((await status(first)).following).toBe(true);

    // Its lock connection dies; the second instance takes over and applies what follows.
    const killed = await sql<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(killed).toHaveLength(1);
    await sql('SELECT pg_terminate_backend($1)', [killed[0].pid]);
    await publish('fence-next');
    await request(up.app.url)
      .post('/api/publish/fence-next/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.0.0', reason: 'broken' })
      .expect(200);
    await copied('fence-next', true);
    expect((await status(second)).following).toBe(true);

    // The first instance's read comes back: it must stop, having written nothing.
    gate.open!();
    await eventually(async () => ((await status(first)).following ? null : true), 'the first instance no longer following');
    await publish('fence-last');
    await copied('fence-last');

    for (const slug of ['fence-one', 'fence-slow', 'fence-next', 'fence-last']) expect(await audited('plugin.publish', slug)).toBe(1);
    expect(await audited('plugin.yank', 'fence-next')).toBe(1);
    expect(
      (await sql<{ n: number }>("SELECT count(*)::int AS n FROM catalogue_event WHERE slug = 'fence-next' AND type = 'release.yanked'"))[0]
        .n,
    ).toBe(1);
    const backwards = await sql(
      'SELECT * FROM test_cursor_move WHERE old_cursor IS NOT NULL AND new_cursor::numeric < old_cursor::numeric',
    );
    expect(backwards).toEqual([]);
    expect((await status(second)).following).toBe(true);
    expect((await status(first)).following).toBe(false);
  });
});
