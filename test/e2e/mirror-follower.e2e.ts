import request from 'supertest';
import { eventually } from '../support/eventually';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Two mirror instances on one PostgreSQL database: one follows upstream (it holds the follower
 * advisory lock), the other waits, and takes over when the first stops. The embedded engine has
 * one process, so this runs on PostgreSQL only.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('mirror instances sharing a database', () => {
  let up: PublishWorld;
  let db: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let token: string;
  let firstClosed = false;
  const admins = new Map<TestApp, { Authorization: string }>();

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
  const served = (app: TestApp, slug: string) =>
    eventually(
      async () => ((await request(app.url).get(`/api/plugins/${slug}/latest`)).status === 200 ? true : null),
      `${slug} on the mirror`,
    );
  const copies = async (slug: string) =>
    Number(
      (
        await second.database.dataSource.query("SELECT count(*)::int AS n FROM audit_entry WHERE action = 'plugin.publish' AND slug = $1", [
          slug,
        ])
      )[0].n,
    );
  const mirrorOf = async (login: string) => {
    const app = await startTestApp({ MIRROR_OF: up.app.url, MIRROR_POLL_INTERVAL_MS: '100', FETCH_ALLOW_HOSTS: '127.0.0.1' }, db);
    admins.set(app, { Authorization: `Bearer ${(await userWithSession(app, login, 'admin')).jwt}` });
    return app;
  };

  beforeAll(async () => {
    up = await publishWorld();
    token = (await up.tokenFor('follower-author', ['publish:*'])).token;
    db = await createTestDatabase();
    first = await mirrorOf('first-root');
    await eventually(async () => ((await status(first)).following ? true : null), 'the first instance following');
    second = await mirrorOf('second-root');
  });
  afterAll(async () => {
    await second?.close();
    if (!firstClosed) await first?.close();
    await db?.drop();
    await up?.close();
  });

  it('lets one instance follow and copy; the other takes over when it stops', async () => {
    await publish('led-one');
    await served(second, 'led-one');
    expect((await status(first)).following).toBe(true);
    expect((await status(second)).following).toBe(false);
    expect(await copies('led-one')).toBe(1);

    const cursor = (await status(first)).cursor;
    await first.close();
    firstClosed = true;
    await publish('led-two');
    await served(second, 'led-two');
    const after = await status(second);
    expect(after.following).toBe(true);
    // It resumed after the first instance's cursor: nothing copied twice.
    expect(BigInt(after.cursor!)).toBeGreaterThan(BigInt(cursor!));
    expect(await copies('led-one')).toBe(1);
    expect(await copies('led-two')).toBe(1);
  });
});
