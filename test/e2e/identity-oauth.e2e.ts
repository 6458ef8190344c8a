import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { FakeForge } from '../support/fake-forge';
import { FakeOAuthApp, type OAuthForgeType } from '../support/fake-oauth';
import { startTestApp, type TestApp } from '../support/test-app';

/** Follows the dance the way a browser would, keeping the state cookie between steps. */
async function signIn(app: TestApp, instance: string, oauth: FakeOAuthApp, format?: 'json') {
  const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
  const authorize = new URL(login.headers.location);
  const stateCookie = (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('registry_oauth_state='))!;
  const forgeAnswer = await fetch(authorize, { redirect: 'manual' });
  expect(forgeAnswer.status).toBe(302);
  const callback = new URL(forgeAnswer.headers.get('location')!);
  if (format) callback.searchParams.set('format', format);
  const response = await request(app.url).get(`${callback.pathname}${callback.search}`).set('Cookie', stateCookie.split(';')[0]);
  return { login, authorize, callback, response, oauth };
}

/** What each forge type's sign-in asks for; see the table in docs/getting-started.md for why. */
const EXPECTED_SCOPES: Record<OAuthForgeType, string[]> = {
  github: ['read:user'],
  gitlab: ['read_user', 'read_api'],
  gitea: ['read:user', 'read:repository'],
};

/** A login that sets a genuine state cookie, then a callback carrying `code` (never from the forge). */
async function callbackWithFreshState(app: TestApp, instance: string, code: string) {
  const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
  const state = new URL(login.headers.location).searchParams.get('state')!;
  const stateCookie = (login.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  const query = new URLSearchParams({ code, state });
  const res = await request(app.url).get(`/auth/${instance}/callback?${query}`).set('Cookie', stateCookie);
  return { res };
}

function expectRefusedWithoutSession(res: request.Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/problem\+json/);
  expect(res.body.status).toBe(status);
  expect(res.headers['set-cookie']?.toString() ?? '').not.toMatch(/registry_session=[^;]/);
}

describe.each<OAuthForgeType>(['github', 'gitlab', 'gitea'])('sign-in with a %s forge', (type) => {
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let app: TestApp;
  const instance = `my-${type}`;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, type, '/sub/path');
    // The fake forge is on loopback: sign-in's token exchange obeys the fetch policy like every other call.
    app = await startTestApp({ FORGES: JSON.stringify([oauth.instance(instance)]), FETCH_ALLOW_HOSTS: new URL(forge.url).host });
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  it('redirects to the forge with the client id, a state and the callback', async () => {
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const location = new URL(login.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(
      `${forge.url}/sub/path${type === 'gitlab' ? '/oauth/authorize' : '/login/oauth/authorize'}`,
    );
    expect(location.searchParams.get('client_id')).toBe(oauth.clientId);
    expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get('redirect_uri')).toBe(`${app.config.baseUrl}/auth/${instance}/callback`);
    const cookie = (login.headers['set-cookie'] as unknown as string[]).join(';');
    expect(cookie).toMatch(/registry_oauth_state=/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('asks for the read-only grant, and for the hook scope only with access=hooks; another access value is 400', async () => {
    const scopeOf = async (query: string) => {
      const login = await request(app.url).get(`/auth/${instance}/login${query}`).expect(302);
      return new URL(login.headers.location).searchParams.get('scope')!.split(/[ ,]/);
    };
    const readOnly = { github: ['read:user'], gitlab: ['read_user', 'read_api'], gitea: ['read:user', 'read:repository'] }[type];
    const hooks = { github: 'admin:repo_hook', gitlab: 'api', gitea: 'write:repository' }[type];
    expect(await scopeOf('')).toEqual(readOnly);
    expect(await scopeOf('?access=hooks')).toEqual([...readOnly, hooks]);
    const bad = await request(app.url).get(`/auth/${instance}/login?access=admin`).expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/access' })]);
  });

  it('creates the user, sets the session cookie, and /api/auth/me answers with it', async () => {
    oauth.nextUser = { id: 4242, login: 'octo', email: 'octo@example.test', avatarUrl: 'https://avatars.example.test/4242' };
    const { response } = await signIn(app, instance, oauth);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/');
    const session = (response.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('registry_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Max-Age=604800/);
    const me = await request(app.url).get('/api/auth/me').set('Cookie', session.split(';')[0]).expect(200);
    expect(me.body).toMatchObject({ login: 'octo', instance, email: 'octo@example.test', role: 'user' });
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('keeps the same user when the provider login changes, and refreshes the login', async () => {
    oauth.nextUser = { id: 4242, login: 'octo-renamed' };
    const first = await signIn(app, instance, oauth, 'json');
    expect(first.response.status).toBe(200);
    const again = await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${first.response.body.token}`).expect(200);
    expect(again.body.login).toBe('octo-renamed');
    oauth.nextUser = { id: 4242, login: 'octo' };
    const second = await signIn(app, instance, oauth, 'json');
    expect(second.response.body.user.id).toBe(first.response.body.user.id);
    expect(second.response.body.user.login).toBe('octo');
  });

  it('keeps the provider access token only sealed at rest', async () => {
    const rows = await app.database.dataSource.query(
      `SELECT provider_token_sealed FROM user_account WHERE instance = $1 AND provider_user_id = '4242'`,
      [instance],
    );
    expect(rows).toHaveLength(1);
    expect(Buffer.isBuffer(rows[0].provider_token_sealed)).toBe(true);
    expect(rows[0].provider_token_sealed.toString('latin1')).not.toMatch(/at_[0-9a-f]{24}/);
  });

  it('refuses a callback whose state does not match the cookie', async () => {
    oauth.nextUser = { id: 7, login: 'mallory' };
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const forgeAnswer = await fetch(login.headers.location, { redirect: 'manual' });
    const callback = new URL(forgeAnswer.headers.get('location')!);
    // An attacker's own state cookie from another login attempt.
    const other = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const otherCookie = (other.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const res = await request(app.url).get(`${callback.pathname}${callback.search}`).set('Cookie', otherCookie);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.headers['set-cookie']?.toString() ?? '').not.toMatch(/registry_session=[^;]/);
    const noCookie = await request(app.url).get(`${callback.pathname}${callback.search}`);
    expect(noCookie.status).toBe(401);
    const users = await app.database.dataSource.query(`SELECT 1 FROM user_account WHERE login = 'mallory'`);
    expect(users).toHaveLength(0);
  });

  it('answers 404 for an instance without sign-in', async () => {
    await request(app.url).get('/auth/nowhere/login').expect(404);
  });

  it('asks the forge for exactly the narrowest scopes sign-in needs', async () => {
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const scope = new URL(login.headers.location).searchParams.get('scope') ?? '';
    expect(scope.split(/[ ,]/).filter(Boolean).sort()).toEqual([...EXPECTED_SCOPES[type]].sort());
  });

  it('refuses a replayed callback (same URL, same state cookie) with 401 and no session', async () => {
    oauth.nextUser = { id: 5150, login: 'replayed' };
    const first = await signIn(app, instance, oauth);
    expect(first.response.status).toBe(302);
    const stateCookie = (first.login.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const replay = await request(app.url).get(`${first.callback.pathname}${first.callback.search}`).set('Cookie', stateCookie);
    expectRefusedWithoutSession(replay, 401);
  });

  it('consumes the state server-side: a copied state cookie with a fresh code from the forge is refused', async () => {
    oauth.nextUser = { id: 5151, login: 'copied' };
    const first = await signIn(app, instance, oauth);
    expect(first.response.status).toBe(302);
    const stateCookie = (first.login.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    // The forge happily issues a second code for the same state; the registry must not accept it.
    const again = await fetch(first.authorize, { redirect: 'manual' });
    const callback = new URL(again.headers.get('location')!);
    const tokenRequestsBefore = oauth.tokenRequests.length;
    const res = await request(app.url).get(`${callback.pathname}${callback.search}`).set('Cookie', stateCookie);
    expectRefusedWithoutSession(res, 401);
    expect(oauth.tokenRequests.length).toBe(tokenRequestsBefore);
  });

  it('of two simultaneous callbacks with the same state, exactly one signs in', async () => {
    oauth.nextUser = { id: 5153, login: 'twice' };
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const stateCookie = (login.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const forgeAnswer = await fetch(login.headers.location, { redirect: 'manual' });
    const callback = new URL(forgeAnswer.headers.get('location')!);
    callback.searchParams.set('format', 'json');
    const both = await Promise.all(
      [0, 1].map(() => request(app.url).get(`${callback.pathname}${callback.search}`).set('Cookie', stateCookie)),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    expectRefusedWithoutSession(
      both.find((r) => r.status === 401)!,
      401,
    );
  });

  it('refuses an expired state, and prunes expired states at the next login', async () => {
    oauth.nextUser = { id: 5152, login: 'late' };
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const stateCookie = (login.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const forgeAnswer = await fetch(login.headers.location, { redirect: 'manual' });
    const callback = new URL(forgeAnswer.headers.get('location')!);
    await app.database.dataSource.query(`UPDATE oauth_state SET expires_at = now() - interval '1 second'`);
    const res = await request(app.url).get(`${callback.pathname}${callback.search}`).set('Cookie', stateCookie);
    expectRefusedWithoutSession(res, 401);

    await request(app.url).get(`/auth/${instance}/login`).expect(302);
    await request(app.url).get(`/auth/${instance}/login`).expect(302);
    await app.database.dataSource.query(`UPDATE oauth_state SET expires_at = now() - interval '1 second'`);
    await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const rows = await app.database.dataSource.query(`SELECT count(*)::int AS n FROM oauth_state`);
    expect(rows[0].n).toBe(1);
  });

  it('stores only a SHA-256 of each state, never the state itself', async () => {
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const state = new URL(login.headers.location).searchParams.get('state')!;
    const rows = await app.database.dataSource.query(`SELECT state_sha256 FROM oauth_state WHERE state_sha256 = sha256($1::bytea)`, [
      Buffer.from(state),
    ]);
    expect(rows).toHaveLength(1);
    const all = await app.database.dataSource.query(`SELECT encode(state_sha256, 'escape') AS raw FROM oauth_state`);
    expect(all.map((r: { raw: string }) => r.raw)).not.toContain(state);
  });

  it('answers 401, not 502, to a reused or unknown authorization code (the forge says invalid_grant)', async () => {
    const { res } = await callbackWithFreshState(app, instance, 'a-code-the-forge-never-issued');
    expectRefusedWithoutSession(res, 401);
    expect(oauth.tokenRequests.at(-1)?.get('code')).toBe('a-code-the-forge-never-issued');
  });

  it.each([
    ['invalid_grant with HTTP 401', 401, '{"error":"invalid_grant"}'],
    ['invalid_grant with HTTP 400', 400, '{"error":"invalid_grant","error_description":"expired"}'],
    [
      "GitHub's bad_verification_code with HTTP 200",
      200,
      '{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}',
    ],
  ])('answers 401 when the token endpoint refuses the code: %s', async (_label, status, body) => {
    oauth.nextTokenAnswer = { status, body };
    const { res } = await callbackWithFreshState(app, instance, 'some-code');
    expectRefusedWithoutSession(res, 401);
  });

  it.each([
    ['503 with an OAuth error body', 503, '{"error":"temporarily_unavailable"}'],
    ['500 with an HTML page', 500, '<html>oops</html>'],
    ['502 with an empty body', 502, ''],
  ])('answers 502 when the token endpoint fails: %s', async (_label, status, body) => {
    oauth.nextTokenAnswer = { status, body };
    const { res } = await callbackWithFreshState(app, instance, 'some-code');
    expectRefusedWithoutSession(res, 502);
  });

  it("answers 502 when the forge refuses the registry's own client credentials (a configuration fault, not the user's)", async () => {
    oauth.nextTokenAnswer = { status: 401, body: '{"error":"invalid_client"}' };
    const { res } = await callbackWithFreshState(app, instance, 'some-code');
    expectRefusedWithoutSession(res, 502);
  });
});

describe('sign-in with an unreachable forge', () => {
  let app: TestApp;

  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = `http://127.0.0.1:${port}`;
    app = await startTestApp({
      FETCH_ALLOW_HOSTS: `127.0.0.1:${port}`,
      FORGES: JSON.stringify([
        { name: 'offline', type: 'gitlab', webUrl: gone, apiUrl: `${gone}/api/v4`, clientId: 'id', clientSecret: 'secret' },
      ]),
    });
  });
  afterAll(() => app?.close());

  it('answers 502 when the token endpoint cannot be reached', async () => {
    const { res } = await callbackWithFreshState(app, 'offline', 'some-code');
    expectRefusedWithoutSession(res, 502);
  });
});
