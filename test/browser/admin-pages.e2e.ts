/**
 * The admin console's server-rendered pages without a browser: who may open them (401 with a
 * sign-in link, 403, 200), the filters as plain GET forms, and user-provided text escaped.
 */
import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const PAGES = ['/admin', '/admin/plugins', '/admin/plugins/some-plugin', '/admin/kinds', '/admin/users', '/admin/settings', '/admin/site', '/admin/pages', '/admin/pages/about', '/admin/audit', '/admin/keys', '/admin/requests'];
const HOSTILE = '<img src=x onerror="alert(1)">';
const ESCAPED = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;';

describe('web front end: the admin console pages', () => {
  let app: TestApp;
  let admin: string;
  let user: string;
  const cookie = (jwt: string) => ({ Cookie: `registry_session=${jwt}` });
  const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await userWithSession(app, 'console-admin', 'admin')).jwt;
    user = (await userWithSession(app, 'console-user')).jwt;
  });
  afterAll(() => app?.close());

  it.each(PAGES)('%s: 401 with a sign-in link anonymously, 403 for a user', async (path) => {
    const anonymous = await request(app.url).get(path).expect(401);
    expect(anonymous.headers['content-type']).toMatch(/^text\/html/);
    expect(anonymous.text).toContain('<a class="button" href="/sign-in">Sign in</a>');
    const refused = await request(app.url).get(path).set(cookie(user)).expect(403);
    expect(refused.text).toContain('You may not open this page.');
    expect(refused.text).not.toContain('admin-nav');
  });

  it('gives admins every section with the sub-navigation marking the current one, and 404 for what is not there', async () => {
    for (const path of PAGES.filter((p) => !p.includes('some-plugin') && !p.includes('about'))) {
      const res = await request(app.url).get(path).set(cookie(admin)).expect(200);
      expect(res.text).toContain('<nav class="admin-nav" aria-label="Admin sections">');
      expect(res.text).toMatch(/aria-current="page">/);
      expect(res.text).toContain('id="admin-status" class="status" role="status"');
      expect(res.text).toContain('/assets/admin');
    }
    await request(app.url).get('/admin/plugins/no-such-plugin').set(cookie(admin)).expect(404);
    await request(app.url).get('/admin/pages/no-such-page').set(cookie(admin)).expect(404);
  });

  it('renders the operator settings as a form typed by each value', async () => {
    const res = await request(app.url).get('/admin/settings').set(cookie(admin)).expect(200);
    expect(res.text).toMatch(/<input id="setting-hash-budget-bytes" name="hash.budget_bytes" type="number"[^>]* data-type="integer"/);
    expect(res.text).toMatch(/name="manifest.require_release_asset" type="checkbox" data-type="flag" checked/);
    expect(res.text).toMatch(/<textarea id="setting-manifest-candidates" name="manifest.candidates" data-type="lines"/);
    expect(res.text).toMatch(/name="site.name" data-type="string"/);
  });

  it('escapes what users and admins typed: kind labels, page titles, wishlist requests, audit details', async () => {
    await request(app.url).post('/api/admin/kinds').set(bearer(admin)).send({ key: 'hostile', label: HOSTILE, description: HOSTILE }).expect(201);
    await request(app.url).post('/api/admin/pages').set(bearer(admin)).send({ slug: 'hostile', locale: 'en', title: HOSTILE, markdown: HOSTILE, published: false }).expect(201);
    await request(app.url).post('/api/requests').set(bearer(user)).send({ title: HOSTILE, description: HOSTILE }).expect(201);
    for (const path of ['/admin/kinds', '/admin/pages', '/admin/pages/hostile?locale=en', '/admin/requests', '/admin/audit']) {
      const res = await request(app.url).get(path).set(cookie(admin)).expect(200);
      expect(res.text).not.toContain(HOSTILE);
      expect(res.text).not.toContain('onerror="');
      expect(res.text).toContain(path === '/admin/audit' ? '&lt;img src=x onerror=\\&quot;alert(1)\\&quot;&gt;' : ESCAPED);
    }
  });

  it('filters the audit log with a plain GET form: action and slug stay chosen, other entries are left out', async () => {
    await request(app.url).patch('/api/admin/features').set(bearer(admin)).send({ flags: { stats: true } }).expect(200);
    const res = await request(app.url).get('/admin/audit?action=kind.create').set(cookie(admin)).expect(200);
    expect(res.text).toMatch(/<form class="admin-filters" method="get" action="\/admin\/audit">/);
    expect(res.text).toContain('<option value="kind.create" selected>');
    expect(res.text).toContain('<code>kind.create</code>');
    expect(res.text).not.toContain('<code>features.update</code>');
    const nothing = await request(app.url).get('/admin/audit?action=kind.create&slug=nobody').set(cookie(admin)).expect(200);
    expect(nothing.text).toContain('No entries match.');
    expect(nothing.text).toContain('value="nobody"');
  });
});
