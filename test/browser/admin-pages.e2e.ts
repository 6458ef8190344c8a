/**
 * The admin console's server-rendered pages without a browser: who may open them (401 with a
 * sign-in link, 403, 200), the filters as plain GET forms, and user-provided text escaped.
 */
import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const PAGES = [
  '/admin',
  '/admin/plugins',
  '/admin/plugins/some-plugin',
  '/admin/kinds',
  '/admin/users',
  '/admin/settings',
  '/admin/site',
  '/admin/pages',
  '/admin/pages/about',
  '/admin/audit',
  '/admin/deliveries',
  '/admin/keys',
  '/admin/requests',
];
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
    await request(app.url)
      .post('/api/admin/kinds')
      .set(bearer(admin))
      .send({ key: 'hostile', label: HOSTILE, description: HOSTILE })
      .expect(201);
    await request(app.url)
      .post('/api/admin/pages')
      .set(bearer(admin))
      .send({ slug: 'hostile', locale: 'en', title: HOSTILE, markdown: HOSTILE, published: false })
      .expect(201);
    await request(app.url).post('/api/requests').set(bearer(user)).send({ title: HOSTILE, description: HOSTILE }).expect(201);
    for (const path of ['/admin/kinds', '/admin/pages', '/admin/pages/hostile?locale=en', '/admin/requests', '/admin/audit']) {
      const res = await request(app.url).get(path).set(cookie(admin)).expect(200);
      expect(res.text).not.toContain(HOSTILE);
      expect(res.text).not.toContain('onerror="');
      expect(res.text).toContain(path === '/admin/audit' ? '&lt;img src=x onerror=\\&quot;alert(1)\\&quot;&gt;' : ESCAPED);
    }
  });

  it('filters the audit log with a plain GET form: action and slug stay chosen, other entries are left out', async () => {
    await request(app.url)
      .patch('/api/admin/features')
      .set(bearer(admin))
      .send({ flags: { stats: true } })
      .expect(200);
    const res = await request(app.url).get('/admin/audit?action=kind.create').set(cookie(admin)).expect(200);
    expect(res.text).toMatch(/<form class="admin-filters" method="get" action="\/admin\/audit">/);
    expect(res.text).toContain('<option value="kind.create" selected>');
    expect(res.text).toContain('<code>kind.create</code>');
    expect(res.text).not.toContain('<code>features.update</code>');
    const nothing = await request(app.url).get('/admin/audit?action=kind.create&slug=nobody').set(cookie(admin)).expect(200);
    expect(nothing.text).toContain('No entries match.');
    expect(nothing.text).toContain('value="nobody"');
  });

  it("lists every plugin's deliveries with a plain GET filter, a pager keeping it, Replay on failed rows, and escaped text", async () => {
    const plugin = async (slug: string): Promise<string> =>
      (
        await app.database.dataSource.query(
          `INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $3) RETURNING id`,
          [slug, `https://example.org/a/${slug}`, `example.org/a/${slug}`],
        )
      )[0].id;
    const busy = await plugin('busy-hooks');
    const broken = await plugin('broken-hooks');
    const columns = `plugin_id, provider, delivery_id, event, repo_url, tag, payload_sha256, status, reason, detail, attempts, next_attempt_at, created_at`;
    await app.database.dataSource.query(
      `INSERT INTO webhook_delivery (${columns})
       SELECT $1, 'github', 'busy-' || n, 'release', 'https://example.org/a/busy-hooks', 'v1.0.' || n, repeat('0', 64), 'succeeded', NULL, NULL, 1, now(), now() - n * interval '1 minute'
       FROM generate_series(1, 51) AS n`,
      [busy],
    );
    await app.database.dataSource.query(
      `INSERT INTO webhook_delivery (${columns}) VALUES ($1, 'gitea', 'broken-1', 'release', 'https://example.org/a/broken-hooks', $2, repeat('0', 64), 'failed', 'manifest-invalid', $2, 3, now(), now())`,
      [broken, HOSTILE],
    );

    const all = await request(app.url).get('/admin/deliveries').set(cookie(admin)).expect(200);
    expect(all.text).toMatch(/<form class="admin-filters" method="get" action="\/admin\/deliveries">/);
    expect(all.text).toContain('Deliveries: 52');
    expect(all.text).toContain('<a href="/admin/plugins/broken-hooks">broken-hooks</a>');
    expect(all.text).toContain('<span class="badge delivery-status" data-status="failed">failed</span>');
    expect(all.text).toContain('<code>manifest-invalid</code>');
    expect(all.text).toMatch(
      /<form class="admin-action" method="post" data-action="delivery.replay" data-slug="broken-hooks" data-id="[0-9a-f-]{36}">/,
    );
    expect(all.text.match(/data-action="delivery.replay"/g)).toHaveLength(1);
    expect(all.text).not.toContain(HOSTILE);
    expect(all.text).not.toContain('onerror="');
    expect(all.text).toContain(ESCAPED);
    expect(all.text).toContain('href="/admin/deliveries?page=2" rel="next"');

    const failed = await request(app.url).get('/admin/deliveries?status=failed').set(cookie(admin)).expect(200);
    expect(failed.text).toContain('<option value="failed" selected>');
    expect(failed.text).toContain('Deliveries: 1');
    expect(failed.text).not.toContain('busy-hooks');

    const second = await request(app.url).get('/admin/deliveries?slug=busy-hooks&page=2').set(cookie(admin)).expect(200);
    expect(second.text).toContain('value="busy-hooks"');
    expect(second.text).toContain('href="/admin/deliveries?slug=busy-hooks&amp;page=1" rel="prev"');
    expect(second.text).toContain('<code class="delivery-tag">v1.0.51</code>');
    expect(second.text).not.toContain('broken-hooks');

    const none = await request(app.url).get('/admin/deliveries?status=queued&slug=nobody').set(cookie(admin)).expect(200);
    expect(none.text).toContain('No deliveries match.');
  });
});
