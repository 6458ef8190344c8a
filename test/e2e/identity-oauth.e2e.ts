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
  const response = await request(app.url)
    .get(`${callback.pathname}${callback.search}`)
    .set('Cookie', stateCookie.split(';')[0]);
  return { login, authorize, callback, response, oauth };
}

describe.each<OAuthForgeType>(['github', 'gitlab', 'gitea'])('sign-in with a %s forge', (type) => {
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let app: TestApp;
  const instance = `my-${type}`;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, type, '/sub/path');
    app = await startTestApp({ FORGES: JSON.stringify([oauth.instance(instance)]) });
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  it('redirects to the forge with the client id, a state and the callback', async () => {
    const login = await request(app.url).get(`/auth/${instance}/login`).expect(302);
    const location = new URL(login.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(`${forge.url}/sub/path${type === 'gitlab' ? '/oauth/authorize' : '/login/oauth/authorize'}`);
    expect(location.searchParams.get('client_id')).toBe(oauth.clientId);
    expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get('redirect_uri')).toBe(`${app.config.baseUrl}/auth/${instance}/callback`);
    const cookie = (login.headers['set-cookie'] as unknown as string[]).join(';');
    expect(cookie).toMatch(/registry_oauth_state=/);
    expect(cookie).toMatch(/HttpOnly/i);
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
});
