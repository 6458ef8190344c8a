/**
 * Forge instances added at run time (docs/administering.md#forge-instances): through the admin API
 * and the install wizard's API, live at once (OAuth sign-in against the fake forge, no restart),
 * the client secret sealed at rest and never in an answer, FORGES entries read-only, input checked
 * with problem+json, and audited. On PostgreSQL a second server on the same database sees every
 * change at once.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { FORGE_RELOAD_INTERVAL_MS, ForgeRegistry } from '../../src/platform/forges/forge-registry';
import { sealClientSecret } from '../../src/platform/forges/stored-forge-secret';
import { adminRefusalCallers, expectAdminOnly } from '../support/admin-refusals';
import { FakeForge } from '../support/fake-forge';
import { FakeOAuthApp } from '../support/fake-oauth';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { TWO_INSTANCES_SKIP_REASON, TwoInstances } from '../support/two-instances';

/** The whole OAuth dance the way a browser follows it, against `app` (the callback on `callbackApp`). */
async function signIn(app: TestApp, instance: string, callbackApp: TestApp = app) {
  const login = await request(app.url).get(`/auth/${instance}/login`);
  if (login.status !== 302) return { status: login.status, body: login.body, token: null as string | null };
  const stateCookie = (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('registry_oauth_state='))!;
  const forgeAnswer = await fetch(login.headers.location, { redirect: 'manual' });
  expect(forgeAnswer.status).toBe(302);
  const callback = new URL(forgeAnswer.headers.get('location')!);
  callback.searchParams.set('format', 'json');
  const res = await request(callbackApp.url).get(`${callback.pathname}${callback.search}`).set('Cookie', stateCookie.split(';')[0]);
  return { status: res.status, body: res.body, token: (res.body?.token as string | undefined) ?? null };
}

function expectProblem(res: request.Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(res.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
}

const providerNames = async (app: TestApp) =>
  ((await request(app.url).get('/api/auth/providers').expect(200)).body.providers as { name: string }[]).map((p) => p.name);

describe('forge instances added by an admin', () => {
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let app: TestApp;
  let admin: string;
  let user: string;
  /** Every answer's text, to check that no secret ever appears in one. */
  const answers: string[] = [];
  const seen = (res: request.Response) => {
    answers.push(res.text ?? '');
    return res;
  };

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, 'gitlab', '/corp');
    app = await startTestApp({ FETCH_ALLOW_HOSTS: new URL(forge.url).host });
    admin = (await userWithSession(app, 'root', 'admin')).jwt;
    user = (await userWithSession(app, 'plain')).jwt;
  });
  afterAll(async () => {
    expect(answers.join('\n')).not.toContain(oauth.clientSecret);
    await app?.close();
    await forge?.stop();
  });

  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const corp = () => ({
    name: 'corp',
    type: 'gitlab',
    webUrl: `${forge.url}/corp/`,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
  });

  it('lists the built-in instances as read-only, without credentials', async () => {
    const res = seen(await request(app.url).get('/api/admin/forges').set(as(admin)).expect(200));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.forges.map((f: { name: string; source: string; signIn: boolean }) => [f.name, f.source, f.signIn])).toEqual([
      ['github', 'default', false],
      ['gitlab', 'default', false],
      ['codeberg', 'default', false],
    ]);
    const callers = await adminRefusalCallers(app);
    await expectAdminOnly(app, callers, 'get', '/api/admin/forges');
    await expectAdminOnly(app, callers, 'post', '/api/admin/forges', corp());
    await expectAdminOnly(app, callers, 'delete', '/api/admin/forges/github');
    await request(app.url).post('/api/admin/forges').set(as(user)).send(corp()).expect(403);
  });

  it('adds one that signs people in at once, with no restart', async () => {
    expect(await providerNames(app)).toEqual([]);
    expectProblem(await request(app.url).get('/auth/corp/login'), 404);

    const added = seen(await request(app.url).post('/api/admin/forges').set(as(admin)).send(corp()));
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      name: 'corp',
      type: 'gitlab',
      webUrl: `${forge.url}/corp`,
      apiUrl: `${forge.url}/corp/api/v4`,
      source: 'stored',
      signIn: true,
      callbackUrl: `${app.config.baseUrl}/auth/corp/callback`,
      createdAt: expect.any(Number),
    });
    expect(added.text).not.toContain(oauth.clientId);
    expect(await providerNames(app)).toEqual(['corp']);

    oauth.nextUser = { id: 9001, login: 'corp-dev', email: 'dev@corp.example' };
    const signedIn = await signIn(app, 'corp');
    expect(signedIn.status).toBe(200);
    const me = seen(await request(app.url).get('/api/auth/me').set(as(signedIn.token!)).expect(200));
    expect(me.body).toMatchObject({ login: 'corp-dev', instance: 'corp' });
    expect(oauth.tokenRequests.at(-1)?.get('client_secret')).toBe(oauth.clientSecret);
  });

  it('keeps the client secret only encrypted at rest', async () => {
    const rows = await app.database.dataSource.query(`SELECT f.*, f::text AS whole FROM forge_instance f WHERE name = 'corp'`);
    expect(rows).toHaveLength(1);
    expect(Buffer.isBuffer(rows[0].client_secret_sealed)).toBe(true);
    expect(rows[0].client_secret_sealed.includes(Buffer.from(oauth.clientSecret))).toBe(false);
    expect(rows[0].client_secret_sealed.toString('latin1')).not.toContain(oauth.clientSecret);
    expect(rows[0].whole).not.toContain(oauth.clientSecret);
    expect(rows[0].whole).not.toContain(Buffer.from(oauth.clientSecret).toString('hex'));
  });

  it('audits the addition without the secret', async () => {
    const entries = await app.database.dataSource.query(`SELECT actor_user_id, details FROM audit_entry WHERE action = 'forge.create'`);
    expect(entries).toEqual([
      { actor_user_id: expect.any(String), details: expect.objectContaining({ name: 'corp', type: 'gitlab', via: 'admin' }) },
    ]);
    expect(JSON.stringify(entries)).not.toContain(oauth.clientSecret);
  });

  it.each([
    ['a name outside the pattern', { name: 'Corp Git' }, '/name'],
    ['the reserved name local', { name: 'local' }, '/name'],
    ['an unknown type', { type: 'svn' }, '/type'],
    ['a web URL that is no http(s) URL', { webUrl: 'ftp://git.example.test' }, '/webUrl'],
    ['a web URL with a password', { webUrl: 'https://me:pw@git.example.test' }, '/webUrl'],
    ['an API URL with a query', { apiUrl: 'https://git.example.test/api?x=1' }, '/apiUrl'],
    ['no client secret', { clientSecret: undefined }, '/clientSecret'],
  ])('refuses %s with 400 naming the field', async (_what, change, path) => {
    const res = seen(
      await request(app.url)
        .post('/api/admin/forges')
        .set(as(admin))
        .send({ ...corp(), name: 'other', webUrl: 'https://git.example.test', ...change }),
    );
    expectProblem(res, 400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it.each([
    ['plain http to a host not in FETCH_ALLOW_HOSTS', { webUrl: 'http://203.0.113.7' }, '/webUrl', /plain http/],
    ['a private address', { webUrl: 'https://10.1.2.3/git' }, '/webUrl', /not fetched/],
    ['a metadata address as the API', { webUrl: 'https://93.184.215.14', apiUrl: 'https://169.254.169.254/api' }, '/apiUrl', /not fetched/],
    ['a local name', { webUrl: 'https://localhost:8443' }, '/webUrl', /local name/],
  ])('refuses %s under the fetch policy', async (_what, change, path, message) => {
    const res = seen(
      await request(app.url)
        .post('/api/admin/forges')
        .set(as(admin))
        .send({ ...corp(), name: 'other', ...change }),
    );
    expectProblem(res, 400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path, message: expect.stringMatching(message) })]);
  });

  it('refuses a taken name or web URL with 409, and a built-in instance cannot be removed', async () => {
    expectProblem(seen(await request(app.url).post('/api/admin/forges').set(as(admin)).send(corp())), 409);
    expectProblem(
      seen(
        await request(app.url)
          .post('/api/admin/forges')
          .set(as(admin))
          .send({ ...corp(), name: 'corp-two' }),
      ),
      409,
    );
    const configured = seen(await request(app.url).delete('/api/admin/forges/gitlab').set(as(admin)));
    expectProblem(configured, 409);
    expect(configured.body.type).toMatch(/forge-configured/);
    expectProblem(await request(app.url).delete('/api/admin/forges/nothing-here').set(as(admin)), 404);
    expect(await providerNames(app)).toEqual(['corp']);
  });

  it("lets an added instance take the place of a built-in one (github.com with this registry's OAuth app)", async () => {
    // Inserted as the API would store it: the API's own path would ask DNS about github.com.
    const sealed = sealClientSecret(app.config.keyEncryptionKey, 'github', 'gh-secret-0001');
    await app.database.dataSource.query(
      `INSERT INTO forge_instance (name, type, web_url, api_url, client_id, client_secret_sealed, created_at) VALUES ('github', 'github', 'https://github.com', 'https://api.github.com', 'gh-client', $1, now())`,
      [sealed],
    );
    const listed = seen(await request(app.url).get('/api/admin/forges').set(as(admin)).expect(200));
    expect(listed.body.forges.map((f: { name: string; source: string; signIn: boolean }) => [f.name, f.source, f.signIn])).toEqual([
      ['github', 'stored', true],
      ['gitlab', 'default', false],
      ['codeberg', 'default', false],
      ['corp', 'stored', true],
    ]);
    expect(listed.text).not.toContain('gh-secret-0001');
    expect(await providerNames(app)).toEqual(['github', 'corp']);
    await request(app.url).delete('/api/admin/forges/github').set(as(admin)).expect(204);
    expect((await request(app.url).get('/api/admin/forges').set(as(admin))).body.forges[0]).toMatchObject({
      name: 'github',
      source: 'default',
      signIn: false,
    });
  });

  it('removes an added instance: its sign-in ends at once, its accounts stay', async () => {
    await request(app.url).delete('/api/admin/forges/corp').set(as(admin)).expect(204);
    expect(await providerNames(app)).toEqual([]);
    expectProblem(await request(app.url).get('/auth/corp/login'), 404);
    const accounts = await app.database.dataSource.query(`SELECT login FROM user_account WHERE instance = 'corp'`);
    expect(accounts).toEqual([{ login: 'corp-dev' }]);
    const deleted = await app.database.dataSource.query(
      `SELECT details FROM audit_entry WHERE action = 'forge.delete' ORDER BY created_at`,
    );
    expect(deleted.map((d: { details: { name: string } }) => d.details.name)).toEqual(['github', 'corp']);
  });

  it('lets a removed name that accounts use come back only for the web URL they signed in through', async () => {
    const [account] = await app.database.dataSource.query(`SELECT id FROM user_account WHERE instance = 'corp'`);
    // Another server under the old name: its user 9001 would own corp-dev's account.
    const moved = seen(
      await request(app.url)
        .post('/api/admin/forges')
        .set(as(admin))
        .send({ ...corp(), webUrl: `${forge.url}/elsewhere` }),
    );
    expectProblem(moved, 409);
    expect(moved.body.type).toMatch(/forge-name-bound/);
    expect(moved.body.errors).toEqual([
      expect.objectContaining({ path: '/webUrl', message: expect.stringContaining(`${forge.url}/corp`) }),
    ]);
    expect(await providerNames(app)).toEqual([]);
    expect(await app.database.dataSource.query(`SELECT name FROM forge_instance WHERE name = 'corp'`)).toEqual([]);

    // The same server again (the URL compared normalized, trailing slash and all): its people get their accounts back.
    await request(app.url).post('/api/admin/forges').set(as(admin)).send(corp()).expect(201);
    oauth.nextUser = { id: 9001, login: 'corp-dev' };
    const back = await signIn(app, 'corp');
    expect(back.status).toBe(200);
    expect(back.body.user).toMatchObject({ id: account.id, instance: 'corp' });
    await request(app.url).delete('/api/admin/forges/corp').set(as(admin)).expect(204);
  });

  it('lets a name nobody signed in through move to another web URL', async () => {
    await request(app.url)
      .post('/api/admin/forges')
      .set(as(admin))
      .send({ ...corp(), name: 'spare', webUrl: `${forge.url}/spare` })
      .expect(201);
    await request(app.url).delete('/api/admin/forges/spare').set(as(admin)).expect(204);
    await request(app.url)
      .post('/api/admin/forges')
      .set(as(admin))
      .send({ ...corp(), name: 'spare', webUrl: `${forge.url}/spare-two` })
      .expect(201);
    expect(await app.database.dataSource.query(`SELECT web_url FROM forge_name_history WHERE name = 'spare'`)).toEqual([
      { web_url: `${forge.url}/spare-two` },
    ]);
    await request(app.url).delete('/api/admin/forges/spare').set(as(admin)).expect(204);
  });

  it('answers a stored change as stored when reloading the list right after the commit fails (the periodic check catches up)', async () => {
    // A stand-in for a database connection lost between the commit and the reload: the DB itself stays real.
    const registry = app.app.get(ForgeRegistry);
    const reload = jest.spyOn(registry, 'changed').mockRejectedValueOnce(new Error('connection lost'));
    const added = seen(
      await request(app.url)
        .post('/api/admin/forges')
        .set(as(admin))
        .send({ ...corp(), name: 'flaky', webUrl: `${forge.url}/flaky` }),
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'flaky', source: 'stored', signIn: true, webUrl: `${forge.url}/flaky` });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(await providerNames(app)).toEqual(['flaky']);
    reload.mockRejectedValueOnce(new Error('connection lost'));
    await request(app.url).delete('/api/admin/forges/flaky').set(as(admin)).expect(204);
    expect(await providerNames(app)).toEqual([]);
    reload.mockRestore();
  });

  it('refuses to put a built-in name on another server (the github accounts would change hands)', async () => {
    const res = seen(
      await request(app.url)
        .post('/api/admin/forges')
        .set(as(admin))
        .send({ ...corp(), name: 'github', type: 'github', webUrl: `${forge.url}/hub` }),
    );
    expectProblem(res, 409);
    expect(res.body.type).toMatch(/forge-name-bound/);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: '/webUrl', message: expect.stringContaining('https://github.com') })]);
    expect((await request(app.url).get('/api/admin/forges').set(as(admin))).body.forges[0]).toMatchObject({
      name: 'github',
      source: 'default',
    });
  });
});

describe('forge instances through the install wizard API', () => {
  const INIT_TOKEN = 'bootstrap-token-forge-instances-0001';
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let app: TestApp;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, 'gitea', '/tea');
    app = await startTestApp({ INIT_TOKEN, FETCH_ALLOW_HOSTS: new URL(forge.url).host });
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  const wizard = () => request(app.url).put('/api/init/settings').set('Authorization', `Bearer ${INIT_TOKEN}`);
  const tea = () => ({
    name: 'tea',
    type: 'gitea',
    webUrl: `${forge.url}/tea`,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
  });

  it('adds instances before the first admin exists, live at once', async () => {
    await request(app.url)
      .put('/api/init/settings')
      .send({ forges: [tea()] })
      .expect(401);
    const res = await wizard().send({ siteName: 'Tea Plugins', forges: [tea()] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      siteName: 'Tea Plugins',
      forges: [expect.objectContaining({ name: 'tea', apiUrl: `${forge.url}/tea/api/v1`, source: 'stored', signIn: true })],
    });
    expect(res.text).not.toContain(oauth.clientSecret);
    expect(res.text).not.toContain(oauth.clientId);
    expect(await providerNames(app)).toEqual(['tea']);
    oauth.nextUser = { id: 77, login: 'tea-user' };
    expect((await signIn(app, 'tea')).status).toBe(200);
    const audit = await app.database.dataSource.query(`SELECT actor_user_id, details FROM audit_entry WHERE action = 'forge.create'`);
    expect(audit).toEqual([{ actor_user_id: null, details: expect.objectContaining({ name: 'tea', via: 'install-wizard' }) }]);
  });

  it('checks every instance before writing any, and names the item', async () => {
    const res = await wizard().send({ forges: [tea(), { ...tea(), name: 'bad', webUrl: 'https://10.0.0.1' }] });
    expectProblem(res, 400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: '/forges/1/webUrl' })]);
    expectProblem(await wizard().send({ forges: [{ ...tea(), type: 'cvs' }] }), 400);
    expect(await providerNames(app)).toEqual(['tea']);
  });

  it('keeps a name accounts use on its web URL, and a built-in name on its own, writing nothing otherwise', async () => {
    await wizard().send({ forges: [] }).expect(200);
    const moved = await wizard().send({ forges: [{ ...tea(), webUrl: `${forge.url}/elsewhere` }] });
    expectProblem(moved, 409);
    expect(moved.body.type).toMatch(/forge-name-bound/);
    expect(moved.body.errors).toEqual([expect.objectContaining({ path: '/forges/0/webUrl' })]);
    const builtIn = await wizard().send({ forges: [tea(), { ...tea(), name: 'github', type: 'github', webUrl: `${forge.url}/hub` }] });
    expectProblem(builtIn, 409);
    expect(builtIn.body.errors).toEqual([expect.objectContaining({ path: '/forges/1/webUrl' })]);
    expect(await providerNames(app)).toEqual([]);
    await wizard()
      .send({ forges: [tea()] })
      .expect(200);
    expect(await providerNames(app)).toEqual(['tea']);
  });

  it('replaces its list on the next PUT, and keeps it when forges is left out', async () => {
    expect((await wizard().send({ siteName: 'Tea' }).expect(200)).body.forges).toHaveLength(1);
    expect((await wizard().send({ forges: [] }).expect(200)).body.forges).toEqual([]);
    expect(await providerNames(app)).toEqual([]);
    await wizard()
      .send({ forges: [tea()] })
      .expect(200);
    await request(app.url).post('/api/init/admin').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ login: 'root' }).expect(201);
    await wizard().send({ forges: [] }).expect(410);
    expect(await providerNames(app)).toEqual(['tea']);
  });
});

const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('forge instances on two servers sharing PostgreSQL (no Redis: the version check alone)', () => {
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, 'github', '/hub');
    db = await createTestDatabase();
    const { REDIS_URL: _redis, ...env } = db.env;
    const shared: TestDatabase = { ...db, env };
    const secrets = {
      FETCH_ALLOW_HOSTS: new URL(forge.url).host,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
    };
    a = await startTestApp(secrets, shared);
    b = await startTestApp(secrets, shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await forge?.stop();
  });

  it('an instance added on A signs people in on B at once; removed on A, B refuses at once', async () => {
    const admin = (await userWithSession(a, 'root', 'admin')).jwt;
    expect(await providerNames(b)).toEqual([]);
    const body = {
      name: 'hub',
      type: 'github',
      webUrl: `${forge.url}/hub`,
      apiUrl: `${forge.url}/hub/api/v3`,
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
    };
    await request(a.url).post('/api/admin/forges').set('Authorization', `Bearer ${admin}`).send(body).expect(201);
    // What B's webhooks and ingest read without asking the database (the in-memory list) follows
    // by itself, within the registry's periodic version check: no request to B in between.
    const registryOfB = b.app.get(ForgeRegistry);
    const deadline = Date.now() + FORGE_RELOAD_INTERVAL_MS * 3;
    while (!registryOfB.byName('hub') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(registryOfB.byName('hub')).toMatchObject({ webUrl: `${forge.url}/hub`, clientId: oauth.clientId });
    expect(await providerNames(b)).toEqual(['hub']);
    oauth.nextUser = { id: 31, login: 'hubber' };
    const onB = await signIn(b, 'hub');
    expect(onB.status).toBe(200);
    expect(onB.body.user).toMatchObject({ login: 'hubber', instance: 'hub' });
    const listedOnB = await request(b.url).get('/api/admin/forges').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(listedOnB.body.forges.at(-1)).toMatchObject({ name: 'hub', source: 'stored' });

    await request(a.url).delete('/api/admin/forges/hub').set('Authorization', `Bearer ${admin}`).expect(204);
    expect((await request(b.url).get('/auth/hub/login')).status).toBe(404);
    expect(await providerNames(b)).toEqual([]);
  });
});

if (TWO_INSTANCES_SKIP_REASON) {
  it.skip(`forge instances on two compiled servers: skipped, ${TWO_INSTANCES_SKIP_REASON}`, () => undefined);
} else {
  describe('forge instances on two compiled servers sharing PostgreSQL and Redis', () => {
    let w: TwoInstances;

    beforeAll(async () => {
      w = await TwoInstances.start();
    }, 120_000);
    afterAll(async () => {
      await w?.stop();
    }, 60_000);

    it('an instance added through A signs people in through B, the whole dance on B', async () => {
      const oauth = new FakeOAuthApp(w.forge, 'gitea', '/later');
      const admin = (await w.session(true)).jwt;
      const added = await w.call(0, 'POST', '/api/admin/forges', {
        jwt: admin,
        body: {
          name: 'later',
          type: 'forgejo',
          webUrl: `${w.forge.url}/later`,
          clientId: oauth.clientId,
          clientSecret: oauth.clientSecret,
        },
      });
      expect(added.status).toBe(201);
      const providers = await w.call(1, 'GET', '/api/auth/providers');
      expect(providers.body.providers.map((p: { name: string }) => p.name)).toEqual(['later']);
      expect(JSON.stringify(providers.body)).not.toContain(oauth.clientId);

      oauth.nextUser = { id: 5150, login: 'latecomer' };
      const login = await fetch(`${w.urls[1]}/auth/later/login`, { redirect: 'manual' });
      expect(login.status).toBe(302);
      const stateCookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('registry_oauth_state='))!
        .split(';')[0];
      const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
      const callback = new URL(authorize.headers.get('location')!);
      callback.searchParams.set('format', 'json');
      const done = await w.call(1, 'GET', `${callback.pathname}${callback.search}`, { headers: { Cookie: stateCookie } });
      expect(done.status).toBe(200);
      expect(done.body.user).toMatchObject({ login: 'latecomer', instance: 'later' });
      const rows = await w.sql<{ sealed: Buffer }>('SELECT client_secret_sealed AS sealed FROM forge_instance');
      expect(rows[0].sealed.includes(Buffer.from(oauth.clientSecret))).toBe(false);
    });
  });
}
