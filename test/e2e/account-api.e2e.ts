/**
 * The API the account pages need (docs/web.md): the public list of sign-in providers (never a
 * credential), the signed-in user's own plugins, and the install wizard's admin answer that also
 * signs the browser in; plus the account pages' status codes without a browser.
 */
import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const INIT_TOKEN = 'bootstrap-token-for-account-api-0001';
const FORGES = [
  {
    name: 'github',
    type: 'github',
    webUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
    clientId: 'gh-client-id-0001',
    clientSecret: 'gh-client-secret-0001',
    token: 'gh-service-token-0001',
  },
  {
    name: 'corp',
    type: 'gitlab',
    webUrl: 'https://git.corp.example',
    apiUrl: 'https://git.corp.example/api/v4',
    clientId: 'corp-client-id-0001',
    clientSecret: 'corp-client-secret-0001',
  },
  { name: 'codeberg', type: 'gitea', webUrl: 'https://codeberg.org', apiUrl: 'https://codeberg.org/api/v1' },
];
const SECRETS = ['gh-client-id-0001', 'gh-client-secret-0001', 'gh-service-token-0001', 'corp-client-id-0001', 'corp-client-secret-0001'];

describe('account API and pages', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ INIT_TOKEN, FORGES: JSON.stringify(FORGES) });
  });
  afterAll(() => app?.close());

  it('GET /api/auth/providers lists the instances with OAuth credentials, publicly, and no credential', async () => {
    const res = await request(app.url).get('/api/auth/providers').expect(200);
    expect(res.body).toEqual({
      providers: [
        {
          name: 'github',
          type: 'github',
          webUrl: 'https://github.com',
          label: 'GitHub',
          loginUrl: '/auth/github/login',
          callbackUrl: `${app.config.baseUrl}/auth/github/callback`,
        },
        {
          name: 'corp',
          type: 'gitlab',
          webUrl: 'https://git.corp.example',
          label: 'GitLab (corp)',
          loginUrl: '/auth/corp/login',
          callbackUrl: `${app.config.baseUrl}/auth/corp/callback`,
        },
      ],
      callbackUrlTemplate: `${app.config.baseUrl}/auth/{name}/callback`,
    });
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
    const page = await request(app.url).get('/sign-in').expect(200);
    expect(page.text).toContain('href="/auth/corp/login"');
    expect(page.text).toContain('href="/setup"');
    for (const secret of SECRETS) expect(page.text).not.toContain(secret);
  });

  it("the install wizard's admin answer keeps its JSON and also sets the HttpOnly session cookie", async () => {
    const before = await request(app.url).get('/setup').expect(200);
    expect(before.text).toContain('id="setup-token-form"');
    await request(app.url)
      .post('/api/init/admin')
      .set('Authorization', 'Bearer wrong-token-wrong-token')
      .send({ login: 'root' })
      .expect(401)
      .then((res) => expect(res.headers['set-cookie']).toBeUndefined());
    const res = await request(app.url)
      .post('/api/init/admin')
      .set('Authorization', `Bearer ${INIT_TOKEN}`)
      .send({ login: 'root' })
      .expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['token', 'user']);
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('registry_session='))!;
    expect(cookie).toBe(
      `registry_session=${res.body.token}; Max-Age=604800; Path=/; Expires=${/Expires=([^;]+)/.exec(cookie)![1]}; HttpOnly; SameSite=Lax`,
    );
    const me = await request(app.url).get('/api/auth/me').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(me.body).toMatchObject({ login: 'root', role: 'admin' });
    // Closed now: the wizard page sends visitors home.
    const closed = await request(app.url).get('/setup').expect(303);
    expect(closed.headers.location).toBe('/');
    await expect(
      request(app.url)
        .get('/sign-in')
        .then((r) => r.text),
    ).resolves.not.toContain('href="/setup"');
  });

  it('GET /api/auth/me/plugins answers 401 signed out, and each user only their own plugins, released or not', async () => {
    await request(app.url).get('/api/auth/me/plugins').expect(401);
    const alice = await userWithSession(app, 'alice-owner');
    const bob = await userWithSession(app, 'bob-owner');
    const db = app.database.dataSource;
    const insert = async (slug: string, ownerId: string) => {
      const [plugin] = await db.query(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $3) RETURNING id`, [
        slug,
        `https://github.com/acme/${slug}`,
        `github.com/acme/${slug}`,
      ]);
      await db.query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [plugin.id, ownerId]);
    };
    await insert('zeta-tool', alice.user.id);
    await insert('alpha-tool', alice.user.id);
    await insert('bobs-tool', bob.user.id);
    const mine = await request(app.url).get('/api/auth/me/plugins').set('Authorization', `Bearer ${alice.jwt}`).expect(200);
    expect(mine.body.plugins.map((p: { slug: string }) => p.slug)).toEqual(['alpha-tool', 'zeta-tool']);
    expect(mine.body.plugins[0]).toEqual({
      slug: 'alpha-tool',
      name: 'alpha-tool',
      description: null,
      latestVersion: null,
      repoUrl: 'https://github.com/acme/alpha-tool',
      verified: false,
      featured: false,
      deprecated: null,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const page = await request(app.url).get('/account').set('Cookie', `registry_session=${alice.jwt}`).expect(200);
    expect(page.text).toContain('href="/plugins/alpha-tool"');
    expect(page.text).not.toContain('bobs-tool');
    expect(page.text).toContain('value="publish:zeta-tool"');
    const admin = await userWithSession(app, 'i18n-admin', 'admin');
    await request(app.url)
      .patch('/api/admin/i18n')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ defaultLocale: 'en', locales: ['en', 'de'] })
      .expect(200);
    const german = await request(app.url).get('/account?lang=de').set('Cookie', `registry_session=${alice.jwt}`).expect(200);
    expect(german.text).toContain('<h1>Ihr Konto</h1>');
    expect(german.text).toContain('Token erstellen');
    await request(app.url)
      .patch('/api/admin/i18n')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ defaultLocale: 'en', locales: ['en'] })
      .expect(200);
  });

  it('answers the account page 401 signed out, and the submit page 404 while the submit flag is off', async () => {
    const denied = await request(app.url).get('/account').expect(401);
    expect(denied.text).toContain('<a class="button" href="/sign-in">');
    const anonymousSubmit = await request(app.url).get('/submit').expect(200);
    expect(anonymousSubmit.text).toContain('href="/auth/github/login?access=hooks"');
    const admin = await userWithSession(app, 'flag-admin', 'admin');
    await request(app.url)
      .patch('/api/admin/features')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ flags: { submit: false } })
      .expect(200);
    await request(app.url).get('/submit').expect(404);
    await request(app.url)
      .patch('/api/admin/features')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ flags: { submit: true } })
      .expect(200);
  });
});
