/// <reference lib="dom" />
/**
 * Every web page in Chromium, at 1280 and 375 px wide, signed out and signed in (user, admin)
 * where it matters, run through axe-core: zero violations of any impact. On every page also:
 * nothing wider than the screen (no action off-screen), no console error, no request to another
 * host, and no same-origin answer of 400 or more but the page's own expected status (a missing
 * favicon would be one).
 *
 * To cover a new page, add it to PAGES (or to SETUP_STEPS for the install wizard).
 */
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import type { Response } from 'playwright-core';
import { axeViolations, preloadAxe } from '../support/axe';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { catalogueWorld, publishAurora, type CatalogueWorld } from './catalogue-world';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const WIDTHS = [1280, 375] as const;

type Role = 'anonymous' | 'user' | 'admin';

export interface PageCase {
  path: string;
  /** Who looks: each role is a browser context with that session cookie (or none). */
  as: Role;
  /** The status the page answers with (200 unless told). */
  status?: number;
  /** Brings the page into a state worth checking (a menu open) before axe runs. */
  prepare?: (watched: WatchedPage) => Promise<void>;
}

/** The header search box with its suggestions open, the active option moved by the keyboard. */
async function openSuggestions({ page }: WatchedPage): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search plugins' });
  await box.fill('');
  await box.pressSequentially('aur', { delay: 20 });
  await page.locator('#search-suggestions [role=option]').first().waitFor({ timeout: 30_000 });
  await box.press('ArrowDown');
}

/** Every page of the site, with enough in the catalogue that none is empty. */
const PAGES: PageCase[] = [
  { path: '/', as: 'anonymous' },
  { path: '/', as: 'anonymous', prepare: openSuggestions },
  { path: '/', as: 'admin' },
  { path: '/plugins', as: 'anonymous' },
  { path: '/plugins?q=theme', as: 'anonymous' },
  { path: '/plugins?kind=theme&ext.mood=calm', as: 'anonymous' },
  { path: '/plugins?category=Looks&verified=1', as: 'anonymous' },
  { path: '/plugins/aurora', as: 'anonymous' },
  { path: '/plugins/aurora?locale=de', as: 'user' },
  { path: '/plugins/wide-docs', as: 'anonymous' },
  { path: '/plugins/markdown-preview', as: 'admin' },
  { path: '/kinds/theme', as: 'anonymous' },
  { path: '/pages/about', as: 'anonymous' },
  { path: '/wishlist', as: 'anonymous' },
  { path: '/wishlist', as: 'user' },
  { path: '/sign-in', as: 'anonymous' },
  { path: '/sign-in', as: 'user' },
  { path: '/account', as: 'user' },
  { path: '/account', as: 'admin' },
  { path: '/submit', as: 'user' },
  { path: '/submit', as: 'anonymous' },
  { path: '/admin', as: 'admin' },
  { path: '/admin/plugins', as: 'admin' },
  { path: '/admin/plugins/aurora', as: 'admin' },
  { path: '/admin/kinds', as: 'admin' },
  { path: '/admin/users', as: 'admin' },
  { path: '/admin/settings', as: 'admin' },
  { path: '/admin/site', as: 'admin' },
  { path: '/admin/pages', as: 'admin' },
  { path: '/admin/pages/about?locale=en', as: 'admin' },
  { path: '/admin/audit', as: 'admin' },
  { path: '/admin/deliveries', as: 'admin' },
  { path: '/admin/keys', as: 'admin' },
  { path: '/admin/requests', as: 'admin' },
  // The answers a visitor may meet instead of a page.
  { path: '/account', as: 'anonymous', status: 401 },
  { path: '/admin', as: 'user', status: 403 },
  { path: '/plugins/no-such-plugin', as: 'anonymous', status: 404 },
  { path: '/kinds/no-such-kind', as: 'user', status: 404 },
  { path: '/no/such/path', as: 'anonymous', status: 404 },
  { path: '/no/such/path', as: 'admin', status: 404 },
  { path: '/auth/link?token=not-a-real-token', as: 'anonymous' },
  { path: '/sign-in/link?error=used', as: 'anonymous', status: 410 },
  { path: '/sign-in/link?error=unknown', as: 'anonymous', status: 404 },
];

/** A README that scrolls sideways on a phone: a long code line and a wide table. */
const WIDE_README = [
  '# Wide docs',
  '',
  'Install it, then configure:',
  '',
  '```sh',
  `registry install wide-docs --registry https://plugins.example.org --channel stable --platform linux-x64 --verify --keep-going ${'--flag '.repeat(12)}`,
  '```',
  '',
  '| Option | Type | Default | What it does | Since | Notes |',
  '|---|---|---|---|---|---|',
  '| `columns` | number | 80 | How wide the rendered output may grow before it wraps | 1.0.0 | Counted in characters |',
  '| `theme` | string | light | Which of the bundled colour schemes to start with | 1.1.0 | Any installed theme works |',
  '',
  'Inline `code` and a [link](https://example.org/docs).',
].join('\n');

interface Found {
  page: string;
  width: number;
  problems: string[];
}

/** Everything wrong with the page at this width: axe, overflow, console, requests. */
async function check(watched: WatchedPage, width: number, badResponses: string[], expected: number): Promise<string[]> {
  const found = await axeViolations(watched.page);
  const overflow = await watched.page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    widest: Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}`),
  }));
  if (overflow.scroll > width) found.push(`scrollWidth ${overflow.scroll} > ${width}: ${overflow.widest.join(', ')}`);
  // Chromium logs the page's own non-200 answer as a console error; that one was asked for.
  found.push(...watched.problems.filter((line) => !(expected !== 200 && line.includes(`status of ${expected}`))));
  found.push(...watched.foreignRequests.map((url) => `foreign request ${url}`));
  found.push(...badResponses);
  return found;
}

describeBrowser('web front end: accessibility of every page (axe-core, 1280 and 375 px)', () => {
  let world: CatalogueWorld;
  let browser: BrowserSession;
  const sessions: Record<Role, string | null> = { anonymous: null, user: null, admin: null };

  beforeAll(async () => {
    world = await catalogueWorld();
    const { app } = world.w;
    const bearer = { Authorization: `Bearer ${world.admin.jwt}` };
    await publishAurora(world);
    await world.publish('solar', '0.9.0', { description: 'A bright theme', kind: 'theme', dark: false, mood: 'loud', category: 'Looks' });
    await world.publish('markdown-preview', '2.0.0', {
      description: 'Render markdown as you type',
      category: 'Editors',
      tags: ['markdown'],
    });
    await world.publish('wide-docs', '0.1.0', { description: 'A README with wide code and tables', readme: 'docs/WIDE.md' });
    world.w.forge.route('GET', '/acme/wide-docs/raw/:tag/docs/WIDE.md', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(WIDE_README);
    });
    await world.publish('wide-docs', '0.2.0', { description: 'A README with wide code and tables', readme: 'docs/WIDE.md' });
    await request(app.url)
      .post('/api/admin/plugins/aurora/verify')
      .set(bearer)
      .expect((res) => expect(res.status).toBeLessThan(300));
    await request(app.url)
      .post('/api/admin/plugins/aurora/feature')
      .set(bearer)
      .expect((res) => expect(res.status).toBeLessThan(300));
    await request(app.url)
      .post('/api/admin/pages')
      .set(bearer)
      .send({
        slug: 'about',
        locale: 'en',
        title: 'About this registry',
        markdown: '# About\n\nWho runs it, and how to reach them.\n\n| Contact | Address |\n|---|---|\n| Operators | ops@example.org |',
        published: true,
      })
      .expect(201);
    const user = await userWithSession(app, 'reader');
    sessions.user = user.jwt;
    sessions.admin = world.admin.jwt;
    const userToken = (
      await request(app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${user.jwt}`)
        .send({ name: 'GitHub Actions', scopes: ['publish:*', 'yank:*'] })
        .expect(201)
    ).body.token as string;
    // The user owns a plugin too, so their account page lists it with its webhook deliveries.
    await world.w
      .push(userToken, 'reader-tool', {
        manifest: 'name: "reader-tool"\nversion: "1.0.0"\ndescription: "A tool the reader publishes"',
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'reader-tool.zip', url: world.w.forge.asset('/acme/reader-tool/1.0.0/reader-tool.zip', { size: 1024 }) }],
        repoUrl: `${world.w.forge.url}/acme/reader-tool`,
      })
      .expect(201);
    await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Authorization', `Bearer ${world.admin.jwt}`)
      .send({ name: 'Release pipeline', scopes: ['publish:aurora'] })
      .expect(201);
    await request(app.url)
      .post('/api/requests')
      .set('Authorization', `Bearer ${user.jwt}`)
      .send({ title: 'A Mermaid diagram renderer', description: 'Diagrams from fenced code blocks', kind: 'theme' })
      .expect(201);
    await request(app.url)
      .post('/api/requests')
      .set('Authorization', `Bearer ${world.admin.jwt}`)
      .send({ title: 'A spell checker' })
      .expect(201);
    for (const login of ['maintainer-one', 'maintainer-two']) await userWithSession(app, login);
    const [plugin] = await app.database.dataSource.query(`SELECT id FROM plugin WHERE slug = 'reader-tool'`);
    const columns = `plugin_id, provider, delivery_id, event, repo_url, tag, payload_sha256, status, reason, detail, attempts, next_attempt_at, created_at`;
    await app.database.dataSource.query(
      `INSERT INTO webhook_delivery (${columns}) VALUES
       ($1, 'github', 'ok-1', 'release', $2, 'v1.2.0', repeat('0', 64), 'succeeded', NULL, NULL, 1, now(), now()),
       ($1, 'github', 'bad-1', 'release', $2, 'v1.3.0-rc.1', repeat('0', 64), 'failed', 'manifest-invalid', 'kind: must be one of the registry''s kinds', 3, now(), now())`,
      [plugin.id, `${world.w.forge.url}/acme/reader-tool`],
    );
    browser = await openBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await world?.w.close();
  });

  /**
   * One tab per role and width, kept for the whole sweep: each browser context costs Chromium a
   * renderer process of its own, which was half of every visit's CPU when each visit had a fresh
   * context. axe comes with every document the tab loads (`preloadAxe`).
   */
  const tabs = new Map<string, WatchedPage>();
  async function tab(as: Role, width: number): Promise<WatchedPage> {
    const key = `${as} ${width}`;
    let watched = tabs.get(key);
    if (!watched) {
      watched = await browser.newPage({ width });
      await preloadAxe(watched.context);
      tabs.set(key, watched);
    }
    return watched;
  }

  async function visit(item: PageCase, width: number): Promise<string[]> {
    const watched = await tab(item.as, width);
    const { page, context } = watched;
    const origin = new URL(world.w.app.url).origin;
    // Each page is seen as a fresh visitor in that role would see it: no cookie but the role's
    // session (a page may have set the language's), no storage left by the page before, and no
    // problem counted but its own.
    await context.clearCookies();
    const jwt = sessions[item.as];
    if (jwt) await context.addCookies([{ name: 'registry_session', value: jwt, url: world.w.app.url }]);
    if (page.url().startsWith(`${origin}/`)) await page.evaluate(() => (localStorage.clear(), sessionStorage.clear()));
    watched.problems.length = 0;
    watched.foreignRequests.length = 0;
    const expected = item.status ?? 200;
    const badResponses: string[] = [];
    const onResponse = (response: Response): void => {
      const url = response.url();
      const isPage = url === `${origin}${item.path}`;
      if (url.startsWith(origin) && response.status() >= 400 && !(isPage && response.status() === expected))
        badResponses.push(`${response.status()} for ${url}`);
    };
    page.on('response', onResponse);
    try {
      const answer = await page.goto(item.path, { waitUntil: 'networkidle' });
      const found: string[] = [];
      if (answer?.status() !== expected) found.push(`answered ${answer?.status()}, not ${expected}`);
      if (!(answer?.headers()['content-type'] ?? '').startsWith('text/html'))
        found.push(`answered ${answer?.headers()['content-type']}, not HTML`);
      if (item.prepare) await item.prepare(watched);
      found.push(...(await check(watched, width, badResponses, expected)));
      // A picture of a page that failed, for the person reading the failure (86 full-page
      // screenshots of pages that passed would be a third of this file's time).
      if (found.length > 0)
        await watched.screenshot(
          `a11y-${item.as}-${item.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}${item.prepare ? '-open' : ''}-${width}`,
        );
      return found;
    } finally {
      page.off('response', onResponse);
    }
  }

  it.each(PAGES.map((item) => [`${item.path} as ${item.as}${item.prepare ? ' (menu open)' : ''}`, item] as const))(
    '%s',
    async (_name, item) => {
      // Both widths at once, in contexts of their own: most of a visit is waiting for the network to
      // go quiet, and the two waits overlap.
      const found: Found[] = (
        await Promise.all(WIDTHS.map(async (width) => ({ page: item.path, width, problems: await visit(item, width) })))
      ).filter((f) => f.problems.length > 0);
      expect(found).toEqual([]);
    },
  );

  it('serves a favicon, linked from every page, that the browser loads', async () => {
    const icon = await request(world.w.app.url).get('/favicon.ico').expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\//);
    const home = await request(world.w.app.url).get('/').expect(200);
    expect(home.text).toMatch(/<link rel="icon" href="\/favicon\.ico\?v=[0-9a-f]+"/);
  });
});

/** The install wizard's steps, each shown as the visitor reaches it. */
const SETUP_STEPS: { name: string; reach: (watched: WatchedPage) => Promise<void> }[] = [
  { name: 'bootstrap token', reach: async () => undefined },
  {
    name: 'a wrong token refused',
    reach: async ({ page }) => {
      await page.locator('#setup-token-form input').first().fill('not-the-token');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.locator('#setup-status[data-kind="error"]').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'site name',
    reach: async ({ page }) => {
      await page.locator('#setup-token-form input').first().fill(INIT_TOKEN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Site name', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    },
  },
  {
    name: 'first administrator',
    reach: async ({ page }) => {
      await page.getByLabel('Site name', { exact: true }).fill('Acme Plugins');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Login', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    },
  },
  {
    name: 'how the administrator signs in',
    reach: async ({ page }) => {
      await page.getByLabel('Login', { exact: true }).fill('root');
      await page.getByRole('button', { name: 'Create the administrator' }).click();
      await page.locator('#setup-step-signin:not([hidden])').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'a password set',
    reach: async ({ page }) => {
      await page.getByLabel('New password', { exact: true }).fill('root has a long password');
      await page.getByLabel('Repeat the new password', { exact: true }).fill('root has a long password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Password saved.').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'sign-in with a forge (optional)',
    reach: async ({ page }) => {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.locator('#setup-step-forge:not([hidden])').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'done without a forge',
    reach: async ({ page }) => {
      await page.getByRole('button', { name: 'Finish without a forge' }).click();
      await page.locator('#setup-step-done:not([hidden])').waitFor({ timeout: 30_000 });
    },
  },
];
const INIT_TOKEN = 'bootstrap-token-for-the-accessibility-test';

describeBrowser('web front end: accessibility of the install wizard (axe-core, 1280 and 375 px)', () => {
  // One walk through the wizard on one fresh registry, each step checked at both widths as it is
  // reached (the page widened to 1280 px, checked, and narrowed back): the wizard is one-way, so a
  // walk per width took a registry and a browser of its own. The wizard's script never reads the
  // width (only CSS does), and the walk itself runs at each width in the wizard's own browser
  // suites: at 375 px in account-setup.e2e.ts, at 1280 px in setup-without-forge.e2e.ts.
  it(`every step at ${WIDTHS.join(' and ')} px`, async () => {
    const app: TestApp = await startTestApp({ INIT_TOKEN });
    const browser: BrowserSession = await openBrowser(app.url);
    try {
      const walking = Math.min(...WIDTHS);
      const watched = await browser.newPage({ width: walking });
      await watched.page.goto('/setup', { waitUntil: 'networkidle' });
      const found: { step: string; width: number; problems: string[] }[] = [];
      for (const step of SETUP_STEPS) {
        await step.reach(watched);
        // The refused token is the point of that step; Chromium logs its 401.
        watched.problems.splice(0, watched.problems.length, ...watched.problems.filter((line) => !line.includes('status of 401')));
        for (const width of WIDTHS) {
          await watched.page.setViewportSize({ width, height: 900 });
          const problems = await check(watched, width, [], 200);
          if (problems.length) {
            found.push({ step: step.name, width, problems });
            await watched.screenshot(`a11y-setup-${step.name.replace(/[^a-z0-9]+/gi, '-')}-${width}`);
          }
        }
        await watched.page.setViewportSize({ width: walking, height: 900 });
      }
      expect(found).toEqual([]);
      await watched.context.close();
    } finally {
      await browser.close();
      await app.close();
    }
  });
});
