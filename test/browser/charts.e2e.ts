/// <reference lib="dom" />
/**
 * The server-drawn charts in a real browser, at desktop and phone width: the plugin page's
 * downloads per day and the admin home's activity. Each is an image with an accessible name,
 * its figures in a table only screen readers see and in a visible summary, inside the page's
 * width, with no axe-core violation in it, no console error and nothing from another host.
 */
import request from 'supertest';
import { utcDay } from '../../src/lib/charts/days';
import { DownloadCounter } from '../../src/catalogue/plugins/download-counter';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { axeViolations } from '../support/axe';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const WIDTHS = [
  ['desktop', 1280],
  ['phone', 375],
] as const;

describeBrowser('web front end: the charts in a browser', () => {
  let w: PublishWorld;
  let browser: BrowserSession;
  let adminJwt: string;
  const opened: WatchedPage[] = [];

  beforeAll(async () => {
    w = await publishWorld();
    const { token } = await w.tokenFor('chart-author', ['publish:*']);
    for (const version of ['1.0.0', '1.1.0']) {
      await w
        .push(token, 'charted', {
          manifest: manifestYaml({ name: 'charted', version, description: 'A plugin with a history' }),
          manifestSource: 'plugin.yaml',
          version,
          assets: [{ name: 'charted.zip', url: w.forge.asset(`/acme/charted/${version}/charted.zip`, { size: 300 }) }],
          repoUrl: `${w.forge.url}/acme/charted`,
        })
        .expect(201);
    }
    for (let i = 0; i < 3; i += 1) await request(w.app.url).get('/api/plugins/charted/releases/1.1.0/assets/charted.zip').expect(302);
    await w.app.app.get(DownloadCounter).flush();
    const [{ id }] = await w.app.database.dataSource.query(`SELECT id FROM plugin WHERE slug = 'charted'`);
    // Earlier days, as the counter's writes on those days left them.
    const history = [1, 2, 5, 8, 13, 21, 34, 55, 89, 40, 12];
    for (const [i, n] of history.entries()) {
      await w.app.database.dataSource.query(
        `INSERT INTO plugin_download_day (plugin_id, day, downloads) VALUES ($1, $2::date - $3::int, $4)`,
        [id, utcDay(new Date()), 3 + i * 7, n],
      );
    }
    adminJwt = (await userWithSession(w.app, 'chart-admin', 'admin')).jwt;
    browser = await openBrowser(w.app.url);
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

  async function open(path: string, width: number, jwt?: string): Promise<WatchedPage> {
    const watched = await browser.newPage({ width, height: 900 });
    opened.push(watched);
    if (jwt) await watched.context.addCookies([{ name: 'registry_session', value: jwt, url: w.app.url }]);
    await watched.page.goto(path, { waitUntil: 'load' });
    return watched;
  }

  /** The chart named `name` is drawn inside the viewport's width, with its figures as text beside it. */
  async function expectChart(watched: WatchedPage, name: string, width: number): Promise<void> {
    const { page } = watched;
    const image = page.getByRole('img', { name });
    await image.waitFor();
    const box = (await image.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.height).toBeGreaterThan(box.width / 3);
    const figure = page.locator('figure', { has: image });
    const table = figure.locator('.visually-hidden:has(table)');
    if ((await table.count()) > 0) {
      // In the accessibility tree, not on screen.
      await expect(page.getByRole('table', { name: new RegExp(`^${name}`) }).count()).resolves.toBe(1);
      const tableBox = (await table.boundingBox())!;
      expect(tableBox.width).toBeLessThanOrEqual(1);
    }
    await expect(figure.locator('figcaption').isVisible()).resolves.toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  it.each(WIDTHS)('shows the plugin page’s downloads per day (%s)', async (label, width) => {
    const watched = await open('/plugins/charted', width);
    const { page } = watched;
    await expectChart(watched, 'charted: downloads per day', width);
    const figure = page.locator('#downloads-chart');
    await expect(figure.locator('rect').count()).resolves.toBe(12);
    await expect(figure.locator('figcaption').textContent()).resolves.toMatch(
      /^Downloads in the last 90 days: 283\. Busiest day: .+ \(89\)\.$/,
    );
    await expect(
      page
        .getByRole('table', { name: /downloads per day/ })
        .getByRole('row')
        .count(),
    ).resolves.toBe(13);
    await expect(page.getByRole('img', { name: 'charted: downloads per day' }).getAttribute('aria-describedby')).resolves.toBe(
      'downloads-chart-desc',
    );
    // Bars take the brand colour from the stylesheet.
    const fill = await figure
      .locator('rect')
      .first()
      .evaluate((el) => getComputedStyle(el).fill);
    expect(fill).not.toBe('rgb(0, 0, 0)');
    expect(await axeViolations(watched.page, '.downloads-chart')).toEqual([]);
    await page.locator('.downloads-chart').scrollIntoViewIfNeeded();
    await watched.screenshot(`chart-plugin-${label}`);
  });

  it.each(WIDTHS)('shows the admin home’s publishes, failed deliveries and ingest errors per day (%s)', async (label, width) => {
    const watched = await open('/admin', width, adminJwt);
    const { page } = watched;
    await page.getByRole('heading', { level: 2, name: 'Activity, last 30 days' }).waitFor();
    for (const name of ['Releases published per day', 'Failed webhook deliveries per day', 'Refused CI pushes per day'])
      await expectChart(watched, name, width);
    await expect(page.locator('#activity-publishes figcaption').textContent()).resolves.toMatch(
      /^Total in the last 30 days: 2\. Busiest day: .+ \(2\)\.$/,
    );
    await expect(page.locator('#activity-failedDeliveries figcaption').textContent()).resolves.toBe('None in this period.');
    // The plugin list is still the admin home's.
    await page.getByRole('link', { name: 'charted' }).waitFor();
    expect(await axeViolations(watched.page, '.admin-activity')).toEqual([]);
    await watched.screenshot(`chart-admin-${label}`);
  });
});
