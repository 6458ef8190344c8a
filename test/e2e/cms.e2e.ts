import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every admin endpoint of pages, branding, languages, flags and the wishlist, with a body that would be valid. */
const ADMIN_ENDPOINTS: [Method, string, Record<string, unknown>?][] = [
  ['get', '/api/admin/pages'],
  ['post', '/api/admin/pages', { slug: 'x', locale: 'en', title: 'X', markdown: 'x', published: true }],
  ['put', '/api/admin/pages/x?locale=en', { title: 'X', markdown: 'x', published: true }],
  ['delete', '/api/admin/pages/x?locale=en'],
  ['patch', '/api/admin/branding', { siteName: 'X' }],
  ['patch', '/api/admin/i18n', { locales: ['en'] }],
  ['patch', '/api/admin/features', { flags: { requests: true } }],
  ['patch', '/api/admin/requests/00000000-0000-4000-8000-000000000000', { status: 'closed' }],
];

describe('CMS: pages, branding, languages and feature flags', () => {
  let app: TestApp;
  let admin: { jwt: string; user: { id: string } };
  let user: { jwt: string };
  let publisherToken: string;

  const as = (jwt: string | null, method: Method, path: string, body?: Record<string, unknown>) => {
    const req = request(app.url)[method](path);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return body ? req.send(body) : req;
  };
  const audit = (action: string) =>
    app.database.dataSource.query('SELECT actor_user_id, slug, details FROM audit_entry WHERE action = $1 ORDER BY created_at', [
      action,
    ]) as Promise<{ actor_user_id: string; slug: string | null; details: Record<string, any> }[]>;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await userWithSession(app, 'cms-admin', 'admin');
    user = await userWithSession(app, 'cms-user');
    const publisher = await userWithSession(app, 'cms-publisher', 'admin');
    const created = await as(publisher.jwt, 'post', '/api/auth/me/tokens', { name: 'ci', scopes: ['publish:*'] }).expect(201);
    publisherToken = created.body.token;
  });
  afterAll(() => app?.close());

  describe.each(ADMIN_ENDPOINTS)('%s %s', (method, path, body) => {
    it("refuses anonymous callers (401), non-admins (403) and publisher tokens, even an admin's (401)", async () => {
      const anonymous = await as(null, method, path, body).expect(401);
      expect(anonymous.headers['content-type']).toMatch(/problem\+json/);
      await as(user.jwt, method, path, body).expect(403);
      await as(publisherToken, method, path, body).expect(401);
    });
  });

  describe('pages', () => {
    const page = (slug: string, locale: string, extra: Record<string, unknown> = {}) => ({
      slug,
      locale,
      title: `${slug} (${locale})`,
      markdown: `# ${slug} in ${locale}`,
      published: true,
      ...extra,
    });

    it('resolves the locale: exact, then the base language, then the default locale, then the first available', async () => {
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'fr', locales: ['en', 'fr', 'de', 'pt', 'pt-BR'] }).expect(200);
      for (const locale of ['de', 'pt', 'pt-BR', 'fr']) await as(admin.jwt, 'post', '/api/admin/pages', page('about', locale)).expect(201);
      const read = async (query: string) => (await request(app.url).get(`/api/pages/about${query}`).expect(200)).body.locale;

      expect(await read('?locale=pt-BR')).toBe('pt-BR');
      expect(await read('?locale=pt_br')).toBe('pt-BR');
      await as(admin.jwt, 'delete', '/api/admin/pages/about?locale=pt-BR').expect(204);
      expect(await read('?locale=pt-BR')).toBe('pt');
      await as(admin.jwt, 'delete', '/api/admin/pages/about?locale=pt').expect(204);
      expect(await read('?locale=pt-BR')).toBe('fr');
      expect(await read('')).toBe('fr');
      await as(admin.jwt, 'delete', '/api/admin/pages/about?locale=fr').expect(204);
      expect(await read('?locale=pt-BR')).toBe('de');
      await request(app.url).get('/api/pages/nothing-here').expect(404);
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en'] }).expect(200);
    });

    it('reads ?locale= as a BCP 47 tag: any case, _ for -, a longer tag falls back along its lookup chain; a malformed one is 400', async () => {
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en', 'pt-BR', 'zh'] }).expect(200);
      for (const locale of ['en', 'pt-BR', 'zh']) await as(admin.jwt, 'post', '/api/admin/pages', page('tongues', locale)).expect(201);
      const read = async (query: string) => (await request(app.url).get(`/api/pages/tongues${query}`).expect(200)).body.locale;

      expect(await read('?locale=EN')).toBe('en');
      expect(await read('?locale=pt_br')).toBe('pt-BR');
      expect(await read('?locale=PT-br')).toBe('pt-BR');
      expect(await read('?locale=zh-Hant-TW')).toBe('zh');
      expect(await read('?locale=english')).toBe('en');
      for (const malformed of ['a--b', '..%2F', 'x'.repeat(300), 'de%3Bq%3D0.9']) {
        const bad = await request(app.url).get(`/api/pages/tongues?locale=${malformed}`).expect(400);
        expect(bad.headers['content-type']).toMatch(/problem\+json/);
        expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/locale' })]);
      }
      // An admin finds a stored page by its locale the same way (a new page's locale is written as stored: pt-BR).
      await as(admin.jwt, 'delete', '/api/admin/pages/tongues?locale=PT_br').expect(204);
      expect(await read('?locale=pt-BR')).toBe('en');
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en'] }).expect(200);
    });

    it("takes the first available in the site's language order when neither the request nor the default matches", async () => {
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en', 'it', 'es'] }).expect(200);
      await as(admin.jwt, 'post', '/api/admin/pages', page('order', 'es')).expect(201);
      await as(admin.jwt, 'post', '/api/admin/pages', page('order', 'it')).expect(201);
      const res = await request(app.url).get('/api/pages/order?locale=ja').expect(200);
      expect(res.body.locale).toBe('it');
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en'] }).expect(200);
    });

    it('serves sanitized HTML: no script, no event handler, no javascript: link, relative links dropped', async () => {
      const markdown = [
        '# Terms',
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[click](javascript:alert(1)) and [docs](https://docs.example.org) and [rel](./other.md)',
        '![logo](logo.png)',
      ].join('\n\n');
      await as(admin.jwt, 'post', '/api/admin/pages', { slug: 'terms', locale: 'en', title: 'Terms', markdown, published: true }).expect(
        201,
      );
      const res = await request(app.url).get('/api/pages/terms?locale=en').expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.body).toEqual({ slug: 'terms', title: 'Terms', html: expect.any(String), locale: 'en', updatedAt: expect.any(Number) });
      const html: string = res.body.html;
      expect(html).toContain('<h1>Terms</h1>');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img[^>]*onerror/i);
      expect(html).not.toMatch(/href="javascript:/i);
      expect(html).toContain('href="https://docs.example.org/"');
      expect(html).not.toContain('other.md"');
      expect(html).not.toMatch(/src="logo\.png"/);
    });

    it('hides unpublished pages from the public and lists them to admins; PUT replaces, DELETE removes, each audited', async () => {
      const created = await as(admin.jwt, 'post', '/api/admin/pages', page('draft', 'en', { published: false })).expect(201);
      expect(created.body).toEqual({
        slug: 'draft',
        locale: 'en',
        title: 'draft (en)',
        markdown: '# draft in en',
        published: false,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      });
      expect(created.headers['cache-control']).toBe('no-store');
      await request(app.url).get('/api/pages/draft').expect(404);
      const listed = await as(admin.jwt, 'get', '/api/admin/pages').expect(200);
      expect(listed.body.pages.find((p: { slug: string }) => p.slug === 'draft')).toMatchObject({ published: false });

      await as(admin.jwt, 'post', '/api/admin/pages', page('draft', 'en')).expect(409);
      const updated = await as(admin.jwt, 'put', '/api/admin/pages/draft?locale=en', {
        title: 'Live',
        markdown: 'Now *live*',
        published: true,
      }).expect(200);
      expect(updated.body).toMatchObject({ title: 'Live', markdown: 'Now *live*', published: true });
      const live = await request(app.url).get('/api/pages/draft').expect(200);
      expect(live.body.html).toContain('<em>live</em>');
      await as(admin.jwt, 'put', '/api/admin/pages/draft?locale=de', { title: 'X', markdown: 'x', published: true }).expect(404);
      await as(admin.jwt, 'delete', '/api/admin/pages/draft?locale=en').expect(204);
      await as(admin.jwt, 'delete', '/api/admin/pages/draft?locale=en').expect(404);
      await request(app.url).get('/api/pages/draft').expect(404);

      const [create] = (await audit('page.create')).filter((e) => e.details.slug === 'draft');
      expect(create.actor_user_id).toBe(admin.user.id);
      const [update] = (await audit('page.update')).filter((e) => e.details.slug === 'draft');
      expect(update.details).toMatchObject({
        locale: 'en',
        before: { title: 'draft (en)', published: false },
        after: { title: 'Live', published: true },
      });
      expect(update.details.before.markdownSha256).not.toBe(update.details.after.markdownSha256);
      const [deletion] = (await audit('page.delete')).filter((e) => e.details.slug === 'draft');
      expect(deletion.details).toMatchObject({ locale: 'en', before: { title: 'Live' } });
    });

    it('validates page input', async () => {
      const bad = await as(admin.jwt, 'post', '/api/admin/pages', {
        slug: 'Bad Slug',
        locale: 'pt-br',
        title: '',
        markdown: 'x',
        published: 'yes',
      }).expect(400);
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/locale', '/published', '/slug', '/title']);
      await as(admin.jwt, 'put', '/api/admin/pages/x', { title: 'X', markdown: 'x', published: true }).expect(400);
      await as(admin.jwt, 'post', '/api/admin/pages', { ...page('big', 'en'), markdown: 'x'.repeat(100_001) }).expect(400);
    });
  });

  describe('branding', () => {
    it('has defaults, takes partial changes with http(s) links and #rrggbb colours, and resets fields with null', async () => {
      const initial = await request(app.url).get('/api/branding').expect(200);
      expect(initial.body).toEqual({
        siteName: 'Plugin Registry',
        logoUrl: null,
        primaryColor: expect.stringMatching(/^#[0-9a-f]{6}$/),
        links: [],
      });

      const changed = await as(admin.jwt, 'patch', '/api/admin/branding', {
        siteName: 'Acme Plugins',
        logoUrl: 'https://cdn.example.org/logo.svg',
        primaryColor: '#AA00FF',
        links: [{ label: 'Docs', url: 'https://docs.example.org' }],
      }).expect(200);
      expect(changed.body).toEqual({
        siteName: 'Acme Plugins',
        logoUrl: 'https://cdn.example.org/logo.svg',
        primaryColor: '#aa00ff',
        links: [{ label: 'Docs', url: 'https://docs.example.org' }],
      });
      await as(admin.jwt, 'patch', '/api/admin/branding', { primaryColor: '#123456' }).expect(200);
      const read = await request(app.url).get('/api/branding').expect(200);
      expect(read.body).toMatchObject({
        siteName: 'Acme Plugins',
        primaryColor: '#123456',
        links: [{ label: 'Docs', url: 'https://docs.example.org' }],
      });

      const bad = await as(admin.jwt, 'patch', '/api/admin/branding', {
        logoUrl: 'javascript:alert(1)',
        primaryColor: 'red',
        links: [
          { label: 'x', url: 'ftp://example.org' },
          { label: '', url: 'https://ok.example.org' },
        ],
      }).expect(400);
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        '/links/0/url',
        '/links/1/label',
        '/logoUrl',
        '/primaryColor',
      ]);

      const reset = await as(admin.jwt, 'patch', '/api/admin/branding', { siteName: null, logoUrl: null, links: null }).expect(200);
      expect(reset.body).toEqual({ siteName: 'Plugin Registry', logoUrl: null, primaryColor: '#123456', links: [] });

      const entries = await audit('branding.update');
      expect(entries).toHaveLength(3);
      expect(entries[0].details.before).toEqual(initial.body);
      expect(entries[0].details.after).toEqual(changed.body);
      expect(entries[2].details.after).toEqual(reset.body);
    });
  });

  describe('languages', () => {
    it("keeps the default among the locales and uses the manifest's locale codes", async () => {
      const before = await request(app.url).get('/api/i18n').expect(200);
      const set = await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'de', locales: ['de', 'en', 'pt-BR'] }).expect(200);
      expect(set.body).toEqual({ defaultLocale: 'de', locales: ['de', 'en', 'pt-BR'] });
      expect((await request(app.url).get('/api/i18n').expect(200)).body).toEqual(set.body);

      const notAmong = await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'fr' }).expect(400);
      expect(notAmong.body.errors).toEqual([{ path: '/defaultLocale', message: expect.stringContaining('must be one of the locales') }]);
      await as(admin.jwt, 'patch', '/api/admin/i18n', { locales: ['en'] }).expect(400);
      const badCodes = await as(admin.jwt, 'patch', '/api/admin/i18n', { locales: ['en', 'pt_BR', 'english'] }).expect(400);
      expect(badCodes.body.errors.map((e: { path: string }) => e.path)).toEqual(['/locales/1', '/locales/2']);
      await as(admin.jwt, 'patch', '/api/admin/i18n', { locales: ['en', 'en'] }).expect(400);
      await as(admin.jwt, 'patch', '/api/admin/i18n', { locales: [] }).expect(400);
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: null }).expect(400);

      const entries = await audit('i18n.update');
      const last = entries[entries.length - 1];
      expect(last.details).toEqual({ before: before.body, after: set.body });
      await as(admin.jwt, 'patch', '/api/admin/i18n', { defaultLocale: 'en', locales: ['en'] }).expect(200);
    });
  });

  describe('feature flags', () => {
    it('lists every declared flag, on by default; admins turn them off and on; an unknown flag is 400', async () => {
      const initial = await request(app.url).get('/api/features').expect(200);
      expect(initial.body).toEqual({ flags: { requests: true, submit: true, webhooks: true, stats: true } });

      const off = await as(admin.jwt, 'patch', '/api/admin/features', { flags: { submit: false, webhooks: false } }).expect(200);
      expect(off.body).toEqual({ flags: { requests: true, submit: false, webhooks: false, stats: true } });
      expect((await request(app.url).get('/api/features').expect(200)).body).toEqual(off.body);

      const unknown = await as(admin.jwt, 'patch', '/api/admin/features', { flags: { teleport: true, requests: false } }).expect(400);
      expect(unknown.body.errors).toEqual([{ path: '/flags', message: expect.stringContaining('unknown flag "teleport"') }]);
      await as(admin.jwt, 'patch', '/api/admin/features', { flags: { requests: 'no' } }).expect(400);
      await as(admin.jwt, 'patch', '/api/admin/features', { flags: ['requests'] }).expect(400);
      await as(admin.jwt, 'patch', '/api/admin/features', {}).expect(400);
      expect((await request(app.url).get('/api/features').expect(200)).body).toEqual(off.body);

      await as(admin.jwt, 'patch', '/api/admin/features', { flags: { submit: true, webhooks: true } }).expect(200);
      const entries = await audit('features.update');
      expect(entries).toHaveLength(2);
      expect(entries[0].details).toEqual({ before: initial.body.flags, after: off.body.flags });
    });

    it('turns /api/stats into a 404 while the stats flag is off', async () => {
      await request(app.url).get('/api/stats').expect(200);
      await as(admin.jwt, 'patch', '/api/admin/features', { flags: { stats: false } }).expect(200);
      const gone = await request(app.url).get('/api/stats').expect(404);
      expect(gone.body.detail).toContain('"stats" feature');
      await as(admin.jwt, 'patch', '/api/admin/features', { flags: { stats: true } }).expect(200);
      await request(app.url).get('/api/stats').expect(200);
    });
  });
});

describe('branding site name before an admin sets one', () => {
  const INIT_TOKEN = 'bootstrap-token-for-branding-0001';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ INIT_TOKEN });
  });
  afterAll(() => app?.close());

  it('is the name the install wizard stored, and branding never writes that setting', async () => {
    await request(app.url)
      .put('/api/init/settings')
      .set('Authorization', `Bearer ${INIT_TOKEN}`)
      .send({ siteName: 'Wizard Name' })
      .expect(200);
    expect((await request(app.url).get('/api/branding').expect(200)).body.siteName).toBe('Wizard Name');

    const admin = await userWithSession(app, 'brand-admin', 'admin');
    await request(app.url)
      .patch('/api/admin/branding')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ siteName: 'Admin Name' })
      .expect(200);
    expect((await request(app.url).get('/api/branding').expect(200)).body.siteName).toBe('Admin Name');
    const [setting] = await app.database.dataSource.query(`SELECT value FROM app_setting WHERE key = 'site.name'`);
    expect(setting.value).toBe('Wizard Name');

    await request(app.url).patch('/api/admin/branding').set('Authorization', `Bearer ${admin.jwt}`).send({ siteName: null }).expect(200);
    expect((await request(app.url).get('/api/branding').expect(200)).body.siteName).toBe('Wizard Name');
  });
});
