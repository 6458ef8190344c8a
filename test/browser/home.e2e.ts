/// <reference lib="dom" />
/**
 * The web front end's frame (docs/web.md) in a real browser: the home page renders from the
 * public API, loads nothing but its own origin, logs no console error, and reads on a phone.
 */
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('web front end: the home page', () => {
  let app: TestApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await openBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('is whole HTML before any script runs, with its title and description', async () => {
    const res = await request(app.url).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>Plugin Registry</title>');
    expect(res.text).toContain('<meta property="og:title" content="Plugin Registry">');
    expect(res.text).toMatch(/<form class="search" role="search" aria-label="Search plugins" action="\/plugins" method="get">/);
    expect(res.text).toMatch(/<link rel="icon" href="\/favicon\.ico\?v=[0-9a-f]{12}" type="image\/svg\+xml">/);
    expect(res.text).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))/);
  });

  it('counts by plural rules, and its figures follow the catalogue at once, not a minute later', async () => {
    const figures = async () => {
      const text = (await request(app.url).get('/').expect(200)).text;
      return [...text.matchAll(/<li><strong>([^<]+)<\/strong> ([^<]+)<\/li>/g)].map((m) => `${m[1]} ${m[2]}`);
    };
    const before = await figures();
    expect(before).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+ (plugin|plugins)$/), expect.stringMatching(/^\d+ (kind|kinds)$/)]),
    );
    const plugins = () => app.database.dataSource.query(`SELECT count(*)::int AS n FROM plugin`).then((rows: { n: number }[]) => rows[0].n);
    const add = (slug: string, downloads: number) =>
      app.database.dataSource.query(`INSERT INTO plugin (slug, name, repo_url, repo_identity, downloads) VALUES ($1, $1, $2, $3, $4)`, [
        slug,
        `https://example.org/a/${slug}`,
        `example.org/a/${slug}`,
        downloads,
      ]);
    expect(await plugins()).toBe(0);
    expect(before).toEqual(expect.arrayContaining(['0 plugins', '0 downloads']));
    await add('first-figure', 1);
    expect(await figures()).toEqual(expect.arrayContaining(['1 plugin', '1 download']));
    await add('second-figure', 1233);
    expect(await figures()).toEqual(expect.arrayContaining(['2 plugins', '1,234 downloads']));
    await app.database.dataSource.query(`DELETE FROM plugin WHERE slug IN ('first-figure', 'second-figure')`);
  });

  it('loads in Chromium at desktop and phone width with no console error and no foreign request', async () => {
    for (const [name, width] of [
      ['home-desktop', 1280],
      ['home-phone', 375],
    ] as const) {
      const watched = await browser.newPage({ width });
      await watched.page.goto('/', { waitUntil: 'networkidle' });
      await expect(watched.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Plugin Registry');
      await watched.screenshot(name);
      await watched.page.keyboard.press('Tab');
      await expect(watched.page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
      const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(watched.problems).toEqual([]);
      expect(watched.foreignRequests).toEqual([]);
      await watched.context.close();
    }
  });

  it('speaks German to a German browser once German is enabled, and the visitor may switch back', async () => {
    const admin = await userWithSession(app, 'web-admin', 'admin');
    await request(app.url)
      .patch('/api/admin/i18n')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ defaultLocale: 'en', locales: ['en', 'de'] })
      .expect(200);
    const watched = await browser.newPage({ locale: 'de-DE' });
    await watched.page.goto('/', { waitUntil: 'networkidle' });
    await expect(watched.page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(watched.page.getByRole('button', { name: 'Suchen' }).count()).resolves.toBe(1);
    await watched.page.getByRole('link', { name: 'en', exact: true }).click();
    await watched.page.waitForLoadState('networkidle');
    await expect(watched.page.getByRole('button', { name: 'Search' }).count()).resolves.toBe(1);
    // Remembered: the next page stays English although the browser asks for German.
    await watched.page.goto('/', { waitUntil: 'networkidle' });
    await expect(watched.page.locator('html').getAttribute('lang')).resolves.toBe('en');
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });
});
