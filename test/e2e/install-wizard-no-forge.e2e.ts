/**
 * The install wizard on a registry with no forge to sign in with: `/setup` offers the first admin a
 * passkey or a password (the account's own endpoints) before the optional forge step, which can be
 * skipped, and the flow finishes: the admin made by the wizard sets a password with the wizard's
 * fresh session and signs in with it afterwards, and the wizard is closed.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

const INIT_TOKEN = 'bootstrap-token-for-no-forge-wizard-01';
const PASSWORD = 'a long wizard password 0001';

describe('install wizard without a forge', () => {
  let app: TestApp;

  beforeAll(async () => {
    // No FORGES: the built-in instances, none of which can sign anybody in.
    app = await startTestApp({ INIT_TOKEN });
  });
  afterAll(() => app?.close());

  it('serves a step that gives the first admin a passkey or a password, and a way to finish without a forge', async () => {
    const page = (await request(app.url).get('/setup').expect(200)).text;
    expect(page).toContain('Step 4 of 5');
    expect(page).toMatch(/<section class="setup-step" id="setup-step-signin"[^>]*hidden>/);
    expect(page).toContain('<form id="passkey-form"');
    expect(page).toContain('<form id="password-form"');
    expect(page).toContain('Sign-in with a forge (optional)');
    expect(page).toMatch(/<button type="button" id="setup-finish">Finish without a forge<\/button>/);
    expect(page).toContain('id="setup-step-done"');
    expect(page).toMatch(/<script[^>]+src="\/assets\/account-credentials\.js/);
  });

  it('runs to the end with a password: the wizard’s session sets it, and it signs the admin in later', async () => {
    const auth = { Authorization: `Bearer ${INIT_TOKEN}` };
    await request(app.url).put('/api/init/settings').set(auth).send({ siteName: 'Forgeless' }).expect(200);
    const made = await request(app.url).post('/api/init/admin').set(auth).send({ login: 'root' }).expect(201);
    const cookie = (made.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('registry_session='))!.split(';')[0];

    // What the wizard's step 4 asks, with the session cookie the wizard's browser holds.
    await request(app.url)
      .get('/api/auth/me/password')
      .set('Cookie', cookie)
      .expect(200, { enabled: true, available: true, set: false, updatedAt: null });
    await request(app.url).get('/api/auth/me/passkeys').set('Cookie', cookie).expect(200, { passkeys: [] });
    await request(app.url)
      .put('/api/auth/me/password')
      .set('Cookie', cookie)
      .set('Origin', app.config.baseUrl)
      .send({ password: PASSWORD })
      .expect(200);
    const status = await request(app.url).get('/api/auth/me/password').set('Cookie', cookie).expect(200);
    expect(status.body.set).toBe(true);

    // Finished: the wizard is closed, and the admin signs in again with the password alone.
    await expect(
      request(app.url)
        .get('/api/init/status')
        .then((r) => r.body),
    ).resolves.toEqual({ initialized: true });
    const closed = await request(app.url).get('/setup');
    expect([302, 303]).toContain(closed.status);
    const signedIn = await request(app.url)
      .post('/api/auth/sign-in/password')
      .set('Origin', app.config.baseUrl)
      .send({ login: 'root', password: PASSWORD })
      .expect(200);
    expect(signedIn.body.user).toEqual(expect.objectContaining({ login: 'root', role: 'admin' }));
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${signedIn.body.token}`).expect(200);
  });
});
