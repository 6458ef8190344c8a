import { createHash, createHmac } from 'node:crypto';
import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

function forgeJwt(header: object, payload: object, key: string) {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

describe('sessions', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('accepts the session as a bearer JWT or a cookie, and logout revokes it everywhere', async () => {
    const { jwt } = await userWithSession(app, 'alice');
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${jwt}`).expect(200);
    await request(app.url).get('/api/auth/me').set('Cookie', `registry_session=${jwt}`).expect(200);
    const out = await request(app.url).post('/api/auth/logout').set('Authorization', `Bearer ${jwt}`).expect(204);
    expect(out.headers['set-cookie']?.toString()).toMatch(/registry_session=;/);
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${jwt}`).expect(401);
    await request(app.url).get('/api/auth/me').set('Cookie', `registry_session=${jwt}`).expect(401);
  });

  it('refuses a JWT signed with another algorithm or key, or with alg none', async () => {
    const { user, sessionId } = await userWithSession(app, 'bob');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, jti: sessionId, iat: now, exp: now + 3600 };
    const wrongKey = forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-session-secret-not-the-session-secret');
    const hs512 = (() => {
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const input = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64(claims)}`;
      return `${input}.${createHmac('sha512', app.config.sessionSecret).update(input).digest('base64url')}`;
    })();
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const right = forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims, app.config.sessionSecret);
    for (const token of [wrongKey, hs512, none, 'garbage', `${right}x`]) {
      await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
    }
    // The control: the same claims, correctly signed, pass.
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${right}`).expect(200);
  });

  it('requires JSON for cookie-authenticated changes (CSRF), not for bearer ones', async () => {
    const { jwt } = await userWithSession(app, 'carol');
    const formPost = await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Cookie', `registry_session=${jwt}`)
      .type('form')
      .send('name=x&scopes=publish:*');
    // A cross-site form cannot send JSON: its body is refused (415) before anything else runs.
    expect(formPost.status).toBe(415);
    expect(
      await request(app.url)
        .get('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${jwt}`)
        .then((r) => r.body.tokens),
    ).toEqual([]);
    const plain = await request(app.url).post('/api/auth/logout').set('Cookie', `registry_session=${jwt}`);
    expect(plain.status).toBe(403);
    await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Cookie', `registry_session=${jwt}`)
      .send({ name: 'ci', scopes: ['publish:*'] })
      .expect(201);
    const tokens = await request(app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(tokens.body.tokens).toHaveLength(1);
  });

  it('answers 401 without any credential', async () => {
    const res = await request(app.url).get('/api/auth/me').expect(401);
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
  });
});

describe('publisher tokens', () => {
  let app: TestApp;
  let jwt: string;
  let otherJwt: string;
  const auth = () => ({ Authorization: `Bearer ${jwt}` });

  beforeAll(async () => {
    app = await startTestApp();
    jwt = (await userWithSession(app, 'dana')).jwt;
    otherJwt = (await userWithSession(app, 'eve')).jwt;
  });
  afterAll(() => app?.close());

  it.each([
    ['publish:*'],
    ['publish:my-plugin'],
    ['yank:*'],
    ['yank:my-plugin'],
    ['manage-owners:*'],
    ['manage-owners:x'],
    ['publish:a', 'yank:a'],
  ])('accepts scopes %p', async (...scopes) => {
    const res = await request(app.url).post('/api/auth/me/tokens').set(auth()).send({ name: 'ok', scopes }).expect(201);
    expect(res.body.row.scopes).toEqual(scopes);
  });

  it.each(['publish', 'deploy:*', 'publish:', 'publish:Bad', 'publish:a b', 'publish:**', ':*', 'yank:-x', 'publish:a:b'])(
    'refuses the malformed scope %p with 400 naming it',
    async (scope) => {
      const res = await request(app.url)
        .post('/api/auth/me/tokens')
        .set(auth())
        .send({ name: 'bad', scopes: ['publish:*', scope] })
        .expect(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      // The bad item is named at its own pointer; the good one beside it is not.
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '/scopes/1', message: expect.stringMatching(/^scopes\/1: /) })]);
    },
  );

  it('refuses bad names, empty scopes and past expiry', async () => {
    for (const body of [
      { name: '', scopes: ['publish:*'] },
      { name: 'x'.repeat(101), scopes: ['publish:*'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['publish:*'], expiresAt: Date.now() - 1000 },
      { name: 'x', scopes: ['publish:*'], expiresAt: 'tomorrow' },
      { name: 'x', scopes: 'publish:*' },
    ]) {
      const res = await request(app.url).post('/api/auth/me/tokens').set(auth()).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('returns the plaintext once; lists rows without hash or plaintext; revokes', async () => {
    const expiresAt = Date.now() + 86_400_000;
    const created = await request(app.url)
      .post('/api/auth/me/tokens')
      .set(auth())
      .send({ name: 'CI', scopes: ['publish:*'], expiresAt: new Date(expiresAt).toISOString() })
      .expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { token, row } = created.body;
    expect(token).toMatch(/^prt_[0-9A-Za-z]{40}$/);
    expect(row).toEqual({
      id: row.id,
      name: 'CI',
      prefix: token.slice(0, 12),
      scopes: ['publish:*'],
      expiresAt,
      createdAt: expect.any(Number),
    });

    const list = await request(app.url).get('/api/auth/me/tokens').set(auth()).expect(200);
    const listed = list.body.tokens.find((t: { id: string }) => t.id === row.id);
    expect(listed).toMatchObject({ status: 'active', prefix: token.slice(0, 12) });
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(JSON.stringify(list.body)).not.toMatch(/sha256|hash/i);

    const stored = await app.database.dataSource.query('SELECT token_sha256 FROM publisher_token WHERE id = $1', [row.id]);
    expect(stored[0].token_sha256.toString('hex')).toBe(createHash('sha256').update(token).digest('hex'));

    await request(app.url).delete(`/api/auth/me/tokens/${row.id}`).set(auth()).expect(204);
    const after = await request(app.url).get('/api/auth/me/tokens').set(auth()).expect(200);
    expect(after.body.tokens.find((t: { id: string }) => t.id === row.id).status).toBe('revoked');

    const audit = await app.database.dataSource.query(`SELECT action FROM audit_entry WHERE details->>'tokenId' = $1 ORDER BY created_at`, [
      row.id,
    ]);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['token.create', 'token.revoke']);
  });

  it("answers 404 for another user's token id, and leaves it alone", async () => {
    const created = await request(app.url)
      .post('/api/auth/me/tokens')
      .set(auth())
      .send({ name: 'mine', scopes: ['publish:*'] })
      .expect(201);
    await request(app.url).delete(`/api/auth/me/tokens/${created.body.row.id}`).set('Authorization', `Bearer ${otherJwt}`).expect(404);
    await request(app.url).delete('/api/auth/me/tokens/not-a-uuid').set(auth()).expect(404);
    const list = await request(app.url).get('/api/auth/me/tokens').set(auth()).expect(200);
    expect(list.body.tokens.find((t: { id: string }) => t.id === created.body.row.id).status).toBe('active');
  });

  it('never accepts a publisher token where a session is required', async () => {
    const created = await request(app.url)
      .post('/api/auth/me/tokens')
      .set(auth())
      .send({ name: 'p', scopes: ['publish:*'] })
      .expect(201);
    const asSession = { Authorization: `Bearer ${created.body.token}` };
    await request(app.url).get('/api/auth/me/tokens').set(asSession).expect(401);
    await request(app.url)
      .post('/api/auth/me/tokens')
      .set(asSession)
      .send({ name: 'x', scopes: ['publish:*'] })
      .expect(401);
    await request(app.url).get('/api/auth/me').set(asSession).expect(401);
  });

  it('limits a user to 50 active tokens', async () => {
    const { jwt: busy } = await userWithSession(app, 'busy');
    const results = await Promise.all(
      Array.from({ length: 55 }, (_, i) =>
        request(app.url)
          .post('/api/auth/me/tokens')
          .set('Authorization', `Bearer ${busy}`)
          .send({ name: `t${i}`, scopes: ['publish:*'] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });
});

describe('install wizard', () => {
  const INIT_TOKEN = 'bootstrap-token-for-tests-0001';
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ INIT_TOKEN });
  });
  afterAll(() => app?.close());

  it('creates the first admin with the bootstrap token, then closes for good (410), also after a restart', async () => {
    await request(app.url).get('/api/init/status').expect(200, { initialized: false });
    await request(app.url).put('/api/init/settings').send({ siteName: 'Acme' }).expect(401);
    await request(app.url)
      .post('/api/init/admin')
      .set('Authorization', 'Bearer wrong-token-wrong-token')
      .send({ login: 'root' })
      .expect(401);
    const settings = await request(app.url)
      .put('/api/init/settings')
      .set('Authorization', `Bearer ${INIT_TOKEN}`)
      .send({ siteName: 'Acme Plugins' })
      .expect(200);
    expect(settings.body).toEqual({ siteName: 'Acme Plugins', forges: [] });

    const [first, second] = await Promise.all([
      request(app.url)
        .post('/api/init/admin')
        .set('Authorization', `Bearer ${INIT_TOKEN}`)
        .send({ login: 'root', email: 'root@acme.test' }),
      request(app.url).post('/api/init/admin').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ login: 'root2' }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([201, 410]);
    const created = first.status === 201 ? first : second;
    expect(created.body.user).toMatchObject({ role: 'admin', instance: 'local' });
    const me = await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${created.body.token}`).expect(200);
    expect(me.body.role).toBe('admin');

    await request(app.url).get('/api/init/status').expect(200, { initialized: true });
    await request(app.url).post('/api/init/admin').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ login: 'late' }).expect(410);
    await request(app.url).put('/api/init/settings').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ siteName: 'x' }).expect(410);
    await request(app.url).post('/api/init/admin').send({ login: 'late' }).expect(410);

    // A restart (a new process would generate a new bootstrap token): still closed.
    const testDatabase = app.testDatabase;
    await app.app.close();
    await app.database.close();
    const restarted = await startTestApp({ INIT_TOKEN: 'a-new-bootstrap-token-0002' }, testDatabase);
    try {
      await request(restarted.url).get('/api/init/status').expect(200, { initialized: true });
      await request(restarted.url)
        .post('/api/init/admin')
        .set('Authorization', 'Bearer a-new-bootstrap-token-0002')
        .send({ login: 'again' })
        .expect(410);
    } finally {
      await restarted.close();
      await testDatabase.drop();
      app = undefined as unknown as TestApp;
    }
  });
});
