/// <reference lib="dom" />
/**
 * A fresh instance in a real browser (docs/administering.md#forge-instances): the home page says it
 * is not set up and links to /setup; /submit explains why it cannot work yet and where a forge gets
 * added; the wizard's last step adds a forge that is live at once (no restart), with unique ids and
 * every label pointing at its control; the admin console lists, adds and removes forges. axe-core
 * finds nothing at 1280 and 375 px on any of these pages.
 */
import request from 'supertest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { axeViolations, preloadAxe } from '../support/axe';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

const INIT_TOKEN = 'bootstrap-token-for-the-forge-step-0001';
const CLIENT_SECRET = 'corp-client-secret-never-shown-0001';
/** A forge "somewhere": the registry only checks its address when it is added, and nothing fetches it here. */
const FORGE_HOST = '127.0.0.1:9';

/** WCAG 2.x A and AA, and best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Duplicate ids, and labels whose `for` names no labelable control. */
async function idAndLabelProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const seen = new Map<string, number>();
    for (const element of Array.from(document.querySelectorAll('[id]'))) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
    for (const [id, count] of seen) if (count > 1) problems.push(`id "${id}" is used ${count} times`);
    for (const label of Array.from(document.querySelectorAll('label[for]'))) {
      const target = document.getElementById(label.getAttribute('for') ?? '');
      if (!target || !['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'OUTPUT', 'METER', 'PROGRESS'].includes(target.tagName))
        problems.push(`label for="${label.getAttribute('for')}" points at ${target ? target.tagName : 'nothing'}`);
    }
    return problems;
  });
}

/**
 * One tab per width for checkPage, kept for the file: a browser context per check cost Chromium a
 * renderer process each time. Each check starts with no cookie but its own and no problem left.
 */
const checkers = new Map<number, WatchedPage>();

/** The page at both widths: axe finds nothing, ids are unique, labels point at controls, no console error. */
async function checkPage(browser: BrowserSession, path: string, cookie: string | null, url: string): Promise<void> {
  for (const width of [1280, 375]) {
    let watched = checkers.get(width);
    if (!watched) {
      watched = await browser.newPage({ width });
      await preloadAxe(watched.context);
      checkers.set(width, watched);
    }
    await watched.context.clearCookies();
    if (cookie) await watched.context.addCookies([{ name: 'registry_session', value: cookie, url }]);
    watched.problems.length = 0;
    watched.foreignRequests.length = 0;
    await watched.page.goto(path, { waitUntil: 'networkidle' });
    expect({ path, width, violations: await axeViolations(watched.page, null, AXE_TAGS) }).toEqual({ path, width, violations: [] });
    expect(await idAndLabelProblems(watched.page)).toEqual([]);
    expect(await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(watched.problems).toEqual([]);
  }
}

describeBrowser('web front end: a fresh instance and its first forge', () => {
  let app: TestApp;
  let browser: BrowserSession;
  let adminCookie = '';

  beforeAll(async () => {
    // No FORGES: the built-in instances, none of which can sign anybody in.
    app = await startTestApp({ INIT_TOKEN, FETCH_ALLOW_HOSTS: FORGE_HOST });
    browser = await openBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('says on the home page that the registry is not set up, and links to /setup', async () => {
    const watched = await browser.newPage();
    await watched.page.goto('/', { waitUntil: 'networkidle' });
    const notice = watched.page.locator('.setup-notice');
    await expect(notice.getByRole('heading').textContent()).resolves.toBe('This registry is not set up yet');
    await expect(notice.getByRole('link', { name: 'Set up this registry' }).getAttribute('href')).resolves.toBe('/setup');
    await watched.screenshot('home-fresh-desktop');
    await watched.context.close();
    await checkPage(browser, '/', null, app.url);
  });

  it('explains /submit while no forge can sign anybody in, pointing at the wizard', async () => {
    const watched = await browser.newPage({ width: 375 });
    await watched.page.goto('/submit', { waitUntil: 'networkidle' });
    await expect(watched.page.locator('#submit-no-forge').textContent()).resolves.toContain('No such forge is configured yet.');
    await expect(watched.page.getByRole('link', { name: 'Set up this registry' }).getAttribute('href')).resolves.toBe('/setup');
    await expect(watched.page.locator('#submit-form').count()).resolves.toBe(0);
    await watched.screenshot('submit-no-forge-phone');
    await watched.context.close();
    await checkPage(browser, '/submit', null, app.url);
  });

  it('serves a wizard whose ids are unique and whose labels all point at their inputs', async () => {
    await checkPage(browser, '/setup', null, app.url);
    const html = (await request(app.url).get('/setup').expect(200)).text;
    expect(html.match(/id="setup-token"/g)).toHaveLength(1);
    expect(html).not.toContain('and restart:');
  });

  it('adds a forge in the last step of the wizard, live at once', async () => {
    const watched = await browser.newPage({ width: 375 });
    const { page } = watched;
    await page.goto('/setup', { waitUntil: 'networkidle' });
    await page.locator('input#setup-token').fill(INIT_TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Site name', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Login', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Login', { exact: true }).fill('root');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByText('Done: you are signed in as root.').waitFor({ timeout: 30_000 });
    await page.getByLabel('New password', { exact: true }).fill('the first admin password');
    await page.getByLabel('Repeat the new password').fill('the first admin password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password saved.').waitFor({ timeout: 30_000 });
    expect(await axeViolations(page, null, AXE_TAGS)).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#setup-step-forge').waitFor({ state: 'visible', timeout: 30_000 });
    await expect(page.locator('#setup-step-forge-title').textContent()).resolves.toBe('Sign-in with a forge (optional)');
    await expect(page.getByRole('button', { name: 'Finish without a forge' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('#setup-step-forge').textContent()).resolves.toContain('without a restart');
    await expect(page.locator('#setup-forge-none').isVisible()).resolves.toBe(true);
    expect(await axeViolations(page, null, AXE_TAGS)).toEqual([]);

    await page.getByLabel('Forge type').selectOption('gitlab');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('gitlab');
    await expect(page.getByLabel('Web address').inputValue()).resolves.toBe('https://gitlab.com');
    await page.getByLabel('Name', { exact: true }).fill('corp');
    await expect(page.getByLabel('Callback URL').inputValue()).resolves.toBe(`${app.config.baseUrl}/auth/corp/callback`);
    await page.getByLabel('Web address').fill(`http://${FORGE_HOST}/gitlab/`);
    await page.getByLabel('OAuth client id').fill('corp-client-id');
    await page.getByLabel('OAuth client secret').fill(CLIENT_SECRET);
    await watched.screenshot('setup-forge-filled-phone');
    await page.getByRole('button', { name: 'Add a forge' }).click();
    await page.getByText('Added: people can sign in with corp now.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#setup-forge-list').textContent()).resolves.toContain(`${app.config.baseUrl}/auth/corp/callback`);
    await expect(page.locator('#setup-forge-none').isVisible()).resolves.toBe(false);
    await expect(page.getByLabel('OAuth client secret').inputValue()).resolves.toBe('');
    await expect(page.locator('#setup-finish').textContent()).resolves.toBe('Finish');
    expect(await page.content()).not.toContain(CLIENT_SECRET);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, null, AXE_TAGS)).toEqual([]);
    await watched.screenshot('setup-forge-added-phone');

    // Live at once: the sign-in list and the forge's login redirect, no restart in between.
    const providers = await request(app.url).get('/api/auth/providers').expect(200);
    expect(providers.body.providers).toEqual([expect.objectContaining({ name: 'corp', webUrl: `http://${FORGE_HOST}/gitlab` })]);
    const login = await request(app.url).get('/auth/corp/login').expect(302);
    expect(login.headers.location).toMatch(new RegExp(`^http://${FORGE_HOST}/gitlab/oauth/authorize\\?`));
    expect(watched.problems).toEqual([]);
    adminCookie = (await watched.context.cookies()).find((c) => c.name === 'registry_session')!.value;
    await watched.context.close();
  });

  it('leaves a home page without the notice, and a /submit with its form', async () => {
    const watched = await browser.newPage();
    await watched.context.addCookies([{ name: 'registry_session', value: adminCookie, url: app.url }]);
    await watched.page.goto('/', { waitUntil: 'networkidle' });
    await expect(watched.page.locator('.setup-notice').count()).resolves.toBe(0);
    await watched.page.goto('/submit', { waitUntil: 'networkidle' });
    await expect(watched.page.getByLabel('Repository URL').isVisible()).resolves.toBe(true);
    await watched.context.close();
  });

  it('lists, adds and removes forges in the admin console', async () => {
    await checkPage(browser, '/admin/settings', adminCookie, app.url);
    const watched = await browser.newPage();
    const { page } = watched;
    await watched.context.addCookies([{ name: 'registry_session', value: adminCookie, url: app.url }]);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto('/admin/settings', { waitUntil: 'networkidle' });
    const row = (name: string) =>
      page.locator('#forges tbody tr').filter({ has: page.locator('td:first-child code', { hasText: new RegExp(`^${name}$`) }) });
    await expect(row('corp').textContent()).resolves.toContain('added here');
    await expect(row('codeberg').textContent()).resolves.toContain('built in');
    await expect(row('codeberg').getByRole('button').count()).resolves.toBe(0);

    const form = page.locator('form[data-action="forge.create"]');
    // It holds a client secret: a submit the script does not catch must not put it in a URL.
    await expect(form.getAttribute('method')).resolves.toBe('post');
    await form.getByLabel('Forge type').selectOption('forgejo');
    await form.getByLabel('Name', { exact: true }).fill('tea');
    await form.getByLabel('Web address').fill(`http://${FORGE_HOST}/tea`);
    await form.getByLabel('OAuth client id').fill('tea-client');
    await form.getByLabel('OAuth client secret').fill('tea-secret-0001');
    await form.getByRole('button', { name: 'Add a forge' }).click();
    await row('tea').waitFor({ timeout: 30_000 });
    await expect(row('tea').textContent()).resolves.toContain(`http://${FORGE_HOST}/tea`);

    // A refused address is named on the field, with the policy's reason.
    await form.getByLabel('Name', { exact: true }).fill('inside');
    await form.getByLabel('Web address').fill('https://10.0.0.5/git');
    await form.getByLabel('OAuth client id').fill('x');
    await form.getByLabel('OAuth client secret').fill('y');
    await form.getByRole('button', { name: 'Add a forge' }).click();
    await form.locator('.status[data-kind="error"]').waitFor({ timeout: 30_000 });
    await expect(form.locator('.status').textContent()).resolves.toMatch(/not fetched/);
    await expect(form.getByLabel('Web address').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByRole('button', { name: 'Remove corp' }).click();
    await row('corp').waitFor({ state: 'detached', timeout: 30_000 });
    await watched.screenshot('admin-forges-desktop');
    expect(watched.problems.filter((line) => !/status of 400/.test(line))).toEqual([]);
    await watched.context.close();
    const names = (await request(app.url).get('/api/auth/providers').expect(200)).body.providers.map((p: { name: string }) => p.name);
    expect(names).toEqual(['tea']);
  });

  it('explains /submit to an admin when no forge can sign anybody in, linking to the forge settings', async () => {
    await request(app.url).delete('/api/admin/forges/tea').set('Authorization', `Bearer ${adminCookie}`).expect(204);
    const watched = await browser.newPage();
    await watched.context.addCookies([{ name: 'registry_session', value: adminCookie, url: app.url }]);
    await watched.page.goto('/submit', { waitUntil: 'networkidle' });
    await expect(watched.page.getByRole('link', { name: 'Add a forge' }).getAttribute('href')).resolves.toBe('/admin/settings#forges');
    await expect(watched.page.getByRole('link', { name: 'Create a publisher token' }).count()).resolves.toBe(1);
    await watched.context.close();
    await checkPage(browser, '/submit', adminCookie, app.url);
  });
});
