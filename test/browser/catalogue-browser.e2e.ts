/// <reference lib="dom" />
/**
 * The catalogue in a real browser (docs/web.md): search as you type and open a plugin, switch its
 * README's language, ask for and vote on a plugin, filter with scripts off; at desktop and phone
 * width, with no console error and nothing loaded from anywhere but the app.
 */
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { axeViolations } from '../support/axe';
import { userWithSession } from '../support/sessions';
import { catalogueWorld, publishAurora, type CatalogueWorld } from './catalogue-world';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const WIDTHS = [
  ['desktop', 1280],
  ['phone', 375],
] as const;

describeBrowser('web front end: the catalogue in a browser', () => {
  let world: CatalogueWorld;
  let browser: BrowserSession;
  let voter: { jwt: string };

  beforeAll(async () => {
    world = await catalogueWorld();
    await publishAurora(world, ['1.0.0', '1.1.0']);
    await world.publish('solar', '0.9.0', { description: 'A bright theme', kind: 'theme', dark: false, mood: 'loud' });
    await world.publish('markdown-preview', '2.0.0', { description: 'Render markdown as you type', category: 'Editors' });
    browser = await openBrowser(world.w.app.url);
    voter = await userWithSession(world.w.app, 'voter');
  });

  afterAll(async () => {
    await browser?.close();
    await world?.w.close();
  });

  async function settled(watched: WatchedPage, name: string): Promise<void> {
    await watched.screenshot(name);
    const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
  }

  it('finds a plugin as the visitor types and opens it', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto('/plugins', { waitUntil: 'networkidle' });
    await expect(page.locator('#results-count').textContent()).resolves.toBe('3 plugins found');
    await page.getByLabel('Search', { exact: true }).pressSequentially('markd', { delay: 20 });
    await page.locator('#results-count', { hasText: '1 plugin found' }).waitFor({ timeout: 30_000 });
    await expect(page.locator('#results .plugin-card a').first().textContent()).resolves.toBe('markdown-preview');
    expect(new URL(page.url()).search).toBe('?q=markd');
    await settled(watched, 'catalogue-search-desktop');
    await page.locator('#results .plugin-card a', { hasText: 'markdown-preview' }).click();
    await page.waitForURL('**/plugins/markdown-preview');
    await expect(page.locator('h1[itemprop=name]').textContent()).resolves.toContain('markdown-preview');
    await page.waitForLoadState('networkidle');
    await settled(watched, 'catalogue-plugin-plain-desktop');
    await watched.context.close();
  });

  it('suggests plugins under the header search box, an ARIA combobox worked by keyboard', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto('/', { waitUntil: 'networkidle' });
    const box = page.getByRole('combobox', { name: 'Search plugins' });
    await box.pressSequentially('aur', { delay: 20 });
    const suggestion = page.getByRole('option', { name: /aurora/ });
    await suggestion.waitFor({ timeout: 30_000 });
    // Every answer for the words typed so far is in (a slow one for "au" may have shown first).
    await page.waitForLoadState('networkidle');
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(box.getAttribute('aria-controls')).resolves.toBe('search-suggestions');
    await expect(page.getByRole('listbox').getByRole('option').last().textContent()).resolves.toBe('All results for “aur”');
    await watched.screenshot('catalogue-suggestions-desktop');
    // The focus stays in the box; the arrow keys move the active option.
    await box.press('ArrowDown');
    const active = await box.getAttribute('aria-activedescendant');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('site-search');
    await expect(page.locator(`#${active}`).textContent()).resolves.toContain('aurora');
    await expect(page.locator(`#${active}`).getAttribute('aria-selected')).resolves.toBe('true');
    // Up from the first wraps to the last ("all results"), down from there back to the first.
    await box.press('ArrowUp');
    await expect(page.locator(`#${await box.getAttribute('aria-activedescendant')}`).textContent()).resolves.toContain('All results');
    await box.press('ArrowDown');
    await expect(box.getAttribute('aria-activedescendant')).resolves.toBe(active);
    await box.press('Escape');
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(box.getAttribute('aria-activedescendant')).resolves.toBeNull();
    await box.press('ArrowDown');
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/plugins/aurora');
    await page.waitForLoadState('networkidle');
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('switches the README to another language', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto('/plugins/aurora', { waitUntil: 'networkidle' });
    await expect(page.locator('.readme h3').textContent()).resolves.toBe('Aurora in English');
    await expect(page.getByRole('link', { name: /Download for / }).count()).resolves.toBe(1);
    await settled(watched, 'catalogue-plugin-desktop');
    await page.getByRole('navigation', { name: 'README language' }).getByRole('link', { name: 'de' }).click();
    await page.waitForURL('**/plugins/aurora?locale=de');
    await expect(page.locator('.readme h3').textContent()).resolves.toBe('Aurora auf Deutsch');
    await expect(page.locator('.readme-locales [aria-current]').textContent()).resolves.toBe('de');
    await page.waitForLoadState('networkidle');
    await settled(watched, 'catalogue-plugin-de-desktop');
    await watched.context.close();
  });

  it('asks for a plugin and votes on the wishlist, with the API’s complaints beside the field', async () => {
    const other = await userWithSession(world.w.app, 'wisher');
    const asked = await request(world.w.app.url)
      .post('/api/requests')
      .set('Authorization', `Bearer ${other.jwt}`)
      .send({ title: 'A Mermaid diagram renderer' })
      .expect(201);
    for (const [name, width] of WIDTHS) {
      const watched = await browser.newPage({ width });
      const { page } = watched;
      await watched.context.addCookies([{ name: 'registry_session', value: voter.jwt, url: world.w.app.url }]);
      await page.goto('/wishlist', { waitUntil: 'networkidle' });
      const form = page.locator('#request-form');
      await form.waitFor({ state: 'visible' });
      if (name === 'desktop') {
        // A blank title: the API's message lands beside the title field.
        await page.getByLabel('What should it do?').fill('   ');
        await page.getByRole('button', { name: 'Add to the wishlist' }).click();
        await page.locator('#request-title-error:not(:empty)').waitFor({ timeout: 30_000 });
        await expect(page.locator('#request-title-error').textContent()).resolves.toMatch(/title/);
        await expect(page.getByLabel('What should it do?').getAttribute('aria-invalid')).resolves.toBe('true');
        await watched.screenshot('catalogue-wishlist-error-desktop');
        // The 400 was the point; Chromium logs every failed response as a console error.
        expect(watched.problems).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
        watched.problems.length = 0;
      }
      await page.getByLabel('What should it do?').fill(`A spell checker (${name})`);
      await page.getByLabel('Kind (optional)').selectOption('theme');
      await page.getByRole('button', { name: 'Add to the wishlist' }).click();
      await page.locator('#request-status', { hasText: 'Added to the wishlist.' }).waitFor({ timeout: 30_000 });
      await expect(page.locator('.wish h3').first().textContent()).resolves.toBe(`A spell checker (${name})`);
      const vote = page.locator(`button[data-upvote="${asked.body.id}"]`);
      const pressed = await vote.getAttribute('aria-pressed');
      await vote.click();
      await page
        .locator(`button[data-upvote="${asked.body.id}"][aria-pressed="${pressed === 'true' ? 'false' : 'true'}"]`)
        .waitFor({ timeout: 30_000 });
      await expect(page.locator(`#votes-${asked.body.id}`).textContent()).resolves.toBe(pressed === 'true' ? '0 votes' : '1 vote');
      await settled(watched, `catalogue-wishlist-${name}`);
      await watched.context.close();
    }
    const listed = await request(world.w.app.url).get('/api/requests').set('Authorization', `Bearer ${voter.jwt}`).expect(200);
    expect(listed.body.requests.find((r: { id: string }) => r.id === asked.body.id)).toMatchObject({ votes: 0, voted: false });
  });

  it('reads on a phone: browse, a plugin, a kind, the wishlist', async () => {
    const watched = await browser.newPage({ width: 375 });
    await watched.context.addCookies([{ name: 'registry_session', value: voter.jwt, url: world.w.app.url }]);
    for (const [path, name] of [
      ['/plugins?q=theme', 'search'],
      ['/plugins/aurora', 'plugin'],
      ['/kinds/theme', 'kind'],
      ['/wishlist', 'wishlist'],
    ]) {
      await watched.page.goto(path, { waitUntil: 'networkidle' });
      await settled(watched, `catalogue-${name}-phone`);
    }
    await watched.context.close();
  });

  it('filters with JavaScript turned off: a plain GET form, ext.* fields once a kind is chosen', async () => {
    const origin = new URL(world.w.app.url).origin;
    const context = await browser.browser.newContext({
      baseURL: world.w.app.url,
      javaScriptEnabled: false,
      viewport: { width: 375, height: 800 },
    });
    const foreign: string[] = [];
    await context.route('**/*', (route) =>
      route.request().url().startsWith(origin) ? route.continue() : (foreign.push(route.request().url()), route.abort('blockedbyclient')),
    );
    try {
      const page = await context.newPage();
      await page.goto('/plugins');
      await page.getByLabel('Kind').selectOption('theme');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/kind=theme/);
      await expect(page.locator('#results-count').textContent()).resolves.toBe('2 plugins found');
      await page.getByLabel('dark').selectOption('false');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/ext\.dark=false/);
      await expect(page.locator('#results-count').textContent()).resolves.toBe('1 plugin found');
      await expect(page.locator('#results .plugin-card a').first().textContent()).resolves.toBe('solar');
      await page.getByText('More filters').click();
      await page.getByLabel('Verified only').check();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/verified=1/);
      await expect(page.locator('#results-count').textContent()).resolves.toBe('0 plugins found');
      await page.screenshot({
        path: (await import('node:path')).join(__dirname, '..', '..', 'test-results', 'screenshots', 'catalogue-nojs-phone.png'),
        fullPage: true,
      });
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows facets as filter links with counts, sets and clears a filter, and passes axe', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    // Counts come from the in-memory index, built moments after start: until then the page shows none.
    const deadline = Date.now() + 20_000;
    do await page.goto('/plugins', { waitUntil: 'networkidle' });
    while ((await page.locator('#facets').count()) === 0 && Date.now() < deadline);
    const facets = page.getByRole('navigation', { name: 'Refine' });
    await facets.getByRole('link', { name: 'Themes (2)' }).click();
    await page.waitForURL(/kind=theme/);
    await expect(page.locator('#results-count').textContent()).resolves.toBe('2 plugins found');
    // The chosen value stays, with its count, beside a way to clear it; the kind's fields appear.
    await expect(facets.locator('[aria-current="true"]').first().textContent()).resolves.toMatch(/^Themes \(2\)/);
    // "calm" is also a tag: the link under the mood field's heading.
    await facets
      .locator('section', { has: page.getByRole('heading', { name: 'mood' }) })
      .getByRole('link', { name: 'calm (1)' })
      .click();
    await page.waitForURL(/ext\.mood=calm/);
    expect(new URL(page.url()).searchParams.get('kind')).toBe('theme');
    await expect(page.locator('#results .plugin-card a').first().textContent()).resolves.toBe('aurora');
    expect(await axeViolations(page, '#facets')).toEqual([]);
    await facets.getByRole('link', { name: 'Clear the Kind filter' }).click();
    await page.waitForURL((url) => !url.searchParams.has('kind'));
    // mood is the theme kind's field, not every kind's: without a kind, its filter goes too.
    expect(new URL(page.url()).searchParams.get('ext.mood')).toBeNull();
    await settled(watched, 'catalogue-facets');
    await watched.context.close();
  });
});
