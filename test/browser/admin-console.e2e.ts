/// <reference lib="dom" />
/**
 * The admin console in a real browser (docs/web.md): verify a published plugin, rebrand the site,
 * turn a feature off, rotate the signing key and find the verification in the audit log, all
 * through the typed client with confirmations and live-region messages; a user is refused.
 */
import type { Locator } from 'playwright-core';
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SLUG = 'admin-demo';

describeBrowser('web front end: the admin console', () => {
  let w: PublishWorld;
  let browser: BrowserSession;
  let adminJwt: string;
  let userJwt: string;
  const opened: WatchedPage[] = [];

  /** A page signed in with `jwt` that accepts every confirmation dialog. */
  async function pageAs(jwt: string, width = 1280): Promise<WatchedPage> {
    const watched = await browser.newPage({ width });
    await watched.context.addCookies([{ name: 'registry_session', value: jwt, url: w.app.url }]);
    watched.page.on('dialog', (dialog) => void dialog.accept());
    opened.push(watched);
    return watched;
  }

  /** Makes a change by clicking: the page loads again with the new state and announces it in its live region. */
  async function change(watched: WatchedPage, button: Locator): Promise<void> {
    const reloaded = watched.page.waitForEvent('load', { timeout: 30_000 });
    await button.click();
    await reloaded;
    await watched.page.locator('#admin-status[data-kind="ok"]', { hasText: 'Saved' }).waitFor({ timeout: 30_000 });
  }

  async function noOverflow(watched: WatchedPage): Promise<void> {
    const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  /** Opens `path` as the admin at 375 px, saves a screenshot, and checks nothing is wider than the screen. */
  async function onPhone(path: string, name: string): Promise<void> {
    const phone = await pageAs(adminJwt, 375);
    await phone.page.goto(path, { waitUntil: 'load' });
    await phone.screenshot(name);
    await noOverflow(phone);
  }

  beforeAll(async () => {
    w = await publishWorld();
    browser = await openBrowser(w.app.url);
    adminJwt = (await userWithSession(w.app, 'web-root', 'admin')).jwt;
    userJwt = (await userWithSession(w.app, 'web-visitor')).jwt;
    const alice = await w.tokenFor('alice', ['publish:*']);
    for (const version of ['1.0.0', '1.1.0']) {
      await w
        .push(alice.token, SLUG, {
          manifest: manifestYaml({ name: SLUG, version, description: 'A plugin to moderate' }),
          manifestSource: 'plugin.yaml',
          version,
          assets: [
            { name: `${SLUG}.zip`, url: w.forge.asset(`/acme/${SLUG}/${version}/${SLUG}.zip`, { size: 300, seed: version.length }) },
          ],
          repoUrl: `${w.forge.url}/acme/${SLUG}`,
        })
        .expect(201);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  afterEach(async () => {
    for (const watched of opened.splice(0)) {
      expect(watched.problems).toEqual([]);
      expect(watched.foreignRequests).toEqual([]);
      await watched.context.close();
    }
  });

  it('verifies a published plugin from its admin page (the catalogue shows it verified) and deletes a release', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin', { waitUntil: 'load' });
    await page.getByRole('link', { name: SLUG }).click();
    await page.getByRole('heading', { level: 1, name: SLUG }).waitFor();
    await change(watched, page.getByRole('button', { name: 'Verify' }));
    await page.getByRole('button', { name: 'Remove verification' }).waitFor();
    await expect(page.locator('.badges .badge.verified').textContent()).resolves.toBe('Verified');
    const plugin = await request(w.app.url).get(`/api/plugins/${SLUG}`).expect(200);
    expect(plugin.body.verified).toBe(true);

    // A release deleted after its confirmation leaves the list.
    await change(watched, page.getByRole('button', { name: 'Delete release 1.1.0' }));
    await expect(page.getByRole('button', { name: /^Delete release/ }).count()).resolves.toBe(1);
    await request(w.app.url).get(`/api/plugins/${SLUG}/releases/1.1.0`).expect(404);

    // A refusal is shown, not swallowed: an unknown login is named in the owners form's own status.
    await page.getByLabel('Add an owner by login').fill('nobody-here');
    await page.getByRole('button', { name: 'Add owner' }).click();
    await page.locator('form[data-action="owner.add"] [role=status][data-kind="error"]', { hasText: 'No user has that login.' }).waitFor();
    await watched.screenshot('admin-plugin-desktop');

    await onPhone(`/admin/plugins/${SLUG}`, 'admin-plugin-phone');
  });

  it('rebrands the site: the header shows the new name and colour; a wrong field is named', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/site', { waitUntil: 'load' });
    await page.getByLabel('Logo URL').fill('ftp://example.org/logo.png');
    await page.getByRole('button', { name: 'Save' }).first().click();
    const problem = page.locator('form[data-action="branding.update"] [role=status][data-kind="error"]');
    await problem.waitFor();
    await expect(problem.textContent()).resolves.toMatch(/logoUrl/);
    await expect(page.getByLabel('Logo URL').getAttribute('aria-invalid')).resolves.toBe('true');
    // Chromium logs the refused request itself; the page showed it, which is what is tested here.
    watched.problems.splice(0, watched.problems.length, ...watched.problems.filter((p) => !/status of 400/.test(p)));

    await page.getByLabel('Logo URL').fill('');
    await page.getByLabel('Site name').fill('Acme Plugins');
    await page.getByLabel('Primary colour').fill('#7c3aed');
    await change(watched, page.getByRole('button', { name: 'Save' }).first());
    await expect(page.locator('.site-header .brand').textContent()).resolves.toBe('Acme Plugins');
    await expect(page.locator('body').getAttribute('style')).resolves.toContain('--brand:#7c3aed');
    await watched.screenshot('admin-site-desktop');

    await onPhone('/admin/site', 'admin-site-phone');
  });

  it('turns a feature flag off and on again: the wishlist leaves the header and comes back', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/site', { waitUntil: 'load' });
    const wishlist = page.locator('.site-header').getByRole('link', { name: 'Wishlist' });
    await expect(wishlist.count()).resolves.toBe(1);
    await page.getByLabel('requests').uncheck();
    await change(watched, page.getByRole('button', { name: 'Save' }).nth(2));
    await expect(wishlist.count()).resolves.toBe(0);
    expect((await request(w.app.url).get('/api/features').expect(200)).body.flags.requests).toBe(false);
    await page.getByLabel('requests').check();
    await change(watched, page.getByRole('button', { name: 'Save' }).nth(2));
    await expect(wishlist.count()).resolves.toBe(1);
  });

  it('rotates the signing key after a confirmation, and lists the new kid as current', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/keys', { waitUntil: 'load' });
    const before = await page.locator('code.kid').allTextContents();
    expect(before.length).toBeGreaterThan(0);
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
    });
    await change(watched, page.getByRole('button', { name: 'Rotate the signing key' }));
    expect(asked).toMatch(/Rotate the signing key now\?/);
    const keys = (await request(w.app.url).get('/api/admin/keys').set('Authorization', `Bearer ${adminJwt}`).expect(200)).body.keys as {
      kid: string;
      state: string;
    }[];
    const current = keys.find((k) => k.state === 'current')!;
    expect(before).not.toContain(current.kid);
    const row = page.locator('tr', { has: page.locator('code.kid', { hasText: current.kid }) });
    await expect(row.locator('.badge').textContent()).resolves.toBe('current');
    await watched.screenshot('admin-keys-desktop');
  });

  it('filters the audit log down to the verification, with and without script', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/audit', { waitUntil: 'load' });
    await page.getByLabel('Action').selectOption('plugin.verify');
    await page.getByLabel('Plugin slug').fill(SLUG);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/action=plugin\.verify/);
    const rows = page.locator('table.admin-table tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('plugin.verify');
    await expect(rows.first().textContent()).resolves.toContain(SLUG);
    await watched.screenshot('admin-audit-desktop');

    await onPhone('/admin/audit', 'admin-audit-phone');
  });

  it('saves the operator settings typed by their values: a number and a flag', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/settings', { waitUntil: 'load' });
    await page.getByLabel('ingest.max_concurrent', { exact: true }).fill('7');
    await page.getByLabel('manifest.require_release_asset').uncheck();
    await change(watched, page.getByRole('button', { name: 'Save' }));
    const settings = (await request(w.app.url).get('/api/admin/settings').set('Authorization', `Bearer ${adminJwt}`).expect(200)).body;
    expect(settings['ingest.max_concurrent']).toBe(7);
    expect(settings['manifest.require_release_asset']).toBe(0);
    await expect(page.getByLabel('ingest.max_concurrent', { exact: true }).inputValue()).resolves.toBe('7');
  });

  it('creates a kind with extension fields, refusing JSON that does not parse first', async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/kinds', { waitUntil: 'load' });
    const form = page.locator('form[data-action="kind.create"]');
    await form.getByLabel('Key').fill('widget');
    await form.getByLabel('Label').fill('Widgets');
    await form.getByLabel('Extension fields (JSON)').fill('[{"key": "size", "type": ');
    await form.getByRole('button', { name: 'Create kind' }).click();
    await form.locator('[role=status][data-kind="error"]', { hasText: 'Extension fields: not valid JSON' }).waitFor();
    await form.getByLabel('Extension fields (JSON)').fill('[{"key": "size", "type": "number", "required": true}]');
    await change(watched, form.getByRole('button', { name: 'Create kind' }));
    const kinds = (await request(w.app.url).get('/api/kinds').expect(200)).body.kinds as { key: string; extensionFields: unknown[] }[];
    expect(kinds.find((k) => k.key === 'widget')?.extensionFields).toEqual([{ key: 'size', type: 'number', required: true }]);
    await expect(page.locator('details.admin-item summary', { hasText: 'Widgets' }).count()).resolves.toBe(1);
  });

  it("changes a user's role from the paginated user list", async () => {
    const watched = await pageAs(adminJwt);
    const { page } = watched;
    await page.goto('/admin/users?search=alice', { waitUntil: 'load' });
    await page.getByLabel('Role of alice').selectOption('admin');
    await change(watched, page.getByRole('button', { name: 'Set role' }));
    const users = (await request(w.app.url).get('/api/admin/users?search=alice').set('Authorization', `Bearer ${adminJwt}`).expect(200))
      .body.users as { login: string; role: string }[];
    expect(users.find((u) => u.login === 'alice')?.role).toBe('admin');
    await expect(page.getByLabel('Role of alice').inputValue()).resolves.toBe('admin');
  });

  it('shows every other section at desktop and phone width with nothing overflowing', async () => {
    await request(w.app.url)
      .post('/api/admin/kinds')
      .set('Authorization', `Bearer ${adminJwt}`)
      .send({ key: 'theme', label: 'Themes', extensionFields: [{ key: 'dark', type: 'boolean' }] })
      .expect(201);
    await request(w.app.url)
      .post('/api/admin/pages')
      .set('Authorization', `Bearer ${adminJwt}`)
      .send({ slug: 'about', locale: 'en', title: 'About us', markdown: '# About', published: true })
      .expect(201);
    await request(w.app.url)
      .post('/api/requests')
      .set('Authorization', `Bearer ${userJwt}`)
      .send({ title: 'A Mermaid renderer', description: 'Diagrams in READMEs' })
      .expect(201);
    // A failed delivery (the worker leaves failed ones alone), so the deliveries table has a Replay button.
    await w.app.database.dataSource.query(
      `INSERT INTO webhook_delivery (plugin_id, provider, delivery_id, event, repo_url, tag, payload_sha256, status, reason, detail, attempts, next_attempt_at)
       SELECT id, 'github', 'console-1', 'release', repo_url, 'v2.0.0', repeat('0', 64), 'failed', 'manifest-asset-missing', 'The release has no plugin.yaml asset', 1, now() FROM plugin WHERE slug = $1`,
      [SLUG],
    );
    const sections = {
      desktop: ['kinds', 'pages', 'deliveries'],
      phone: ['kinds', 'users', 'settings', 'pages', 'requests', 'deliveries'],
    };
    for (const [width, device] of [
      [1280, 'desktop'],
      [375, 'phone'],
    ] as const) {
      const watched = await pageAs(adminJwt, width);
      for (const section of sections[device]) {
        await watched.page.goto(`/admin/${section}`, { waitUntil: 'load' });
        await expect(watched.page.locator('.admin-nav [aria-current="page"]').getAttribute('href')).resolves.toBe(`/admin/${section}`);
        if (section === 'deliveries')
          await expect(watched.page.getByRole('button', { name: 'Replay the delivery of v2.0.0' }).count()).resolves.toBe(1);
        await watched.screenshot(`admin-${section}-${device}`);
        await noOverflow(watched);
      }
    }
  });

  it('refuses a signed-in user who is not an admin with a 403 page', async () => {
    const watched = await pageAs(userJwt);
    const response = await watched.page.goto('/admin/keys', { waitUntil: 'load' });
    expect(response?.status()).toBe(403);
    await expect(watched.page.getByText('You may not open this page.').count()).resolves.toBe(1);
    await expect(watched.page.locator('.admin-nav').count()).resolves.toBe(0);
    // The browser logs the refused document itself; that is the point here, not a page fault.
    watched.problems.splice(0, watched.problems.length, ...watched.problems.filter((p) => !/status of 403/.test(p)));
  });
});
