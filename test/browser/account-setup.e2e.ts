/// <reference lib="dom" />
/**
 * The install wizard in a real browser (docs/getting-started.md) on a fresh instance: the bootstrap
 * token (a wrong one is refused on the page), the site name, the first admin, whose session becomes
 * the browser's cookie, its password (the wizard goes on only once it has a passkey or a password),
 * then how to add sign-in with a forge, and the end; afterwards /setup is closed.
 */
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

const INIT_TOKEN = 'bootstrap-token-for-the-browser-wizard';
const CLIENT_SECRET = 'forge-client-secret-never-shown-0001';

describeBrowser('web front end: the install wizard', () => {
  let app: TestApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    const forges = [
      {
        name: 'corp-git',
        type: 'gitea',
        webUrl: 'https://git.corp.example',
        apiUrl: 'https://git.corp.example/api/v1',
        clientId: 'corp-client-id-0001',
        clientSecret: CLIENT_SECRET,
      },
    ];
    app = await startTestApp({ INIT_TOKEN, FORGES: JSON.stringify(forges) });
    browser = await openBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('serves the wizard without script while the registry is not set up, with no secret in it', async () => {
    const res = await request(app.url).get('/setup').expect(200);
    expect(res.text).toContain('<form id="setup-token-form" method="post" novalidate>');
    // Enter pressed before the script attaches must not put the token or a client secret in a URL.
    const forms = res.text.match(/<form id="setup-[^>]*>/g) ?? [];
    expect(forms.length).toBeGreaterThanOrEqual(4);
    for (const form of forms) expect(form).toContain('method="post"');
    expect(res.text).toContain(`${app.config.baseUrl}/auth/corp-git/callback`);
    expect(res.text).not.toContain(INIT_TOKEN);
    expect(res.text).not.toContain(CLIENT_SECRET);
    expect(res.text).not.toContain('corp-client-id-0001');
  });

  it('runs from the bootstrap token to a signed-in admin, then closes', async () => {
    const desktop = await browser.newPage();
    await desktop.page.goto('/setup', { waitUntil: 'networkidle' });
    await desktop.screenshot('setup-step1-desktop');
    expect(desktop.problems).toEqual([]);
    await desktop.context.close();

    const watched = await browser.newPage({ width: 375 });
    const { page } = watched;
    await page.goto('/setup', { waitUntil: 'networkidle' });
    await page.locator('input#setup-token').fill('not-the-token');
    await page.getByRole('button', { name: 'Continue' }).click();
    const status = page.locator('#setup-status[data-kind="error"]');
    await status.waitFor({ timeout: 30_000 });
    await expect(status.textContent()).resolves.toContain('bootstrap token is missing or wrong');
    await page.locator('input#setup-token').fill(INIT_TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Site name', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Site name', { exact: true }).fill('Acme Plugins');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Login', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Login', { exact: true }).fill('root');
    await page.getByLabel('Email (optional)').fill('root@example.test');
    await watched.screenshot('setup-step3-phone');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByText('Done: you are signed in as root.').waitFor({ timeout: 30_000 });
    // The header follows at once: no "Sign in" link left for a signed-in admin.
    await expect(page.locator('.site-header nav a').allTextContents()).resolves.toEqual(expect.arrayContaining(['Account', 'Admin']));
    await expect(page.locator('.site-header a[href="/sign-in"]').count()).resolves.toBe(0);
    // The intro follows too: it no longer says there is no administrator.
    await expect(page.locator('#setup-intro').textContent()).resolves.toContain('this browser is signed in as them');
    await expect(page.locator('main').textContent()).resolves.not.toContain('no administrator yet');
    // The admin is a local account: the wizard goes on only once it has a way to sign in again.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Add a passkey or set a password first.').waitFor({ timeout: 30_000 });
    await page.getByLabel('New password', { exact: true }).fill('the first admin password');
    await page.getByLabel('Repeat the new password').fill('the first admin password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password saved.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#setup-step-forge').waitFor({ state: 'visible', timeout: 30_000 });
    await expect(page.locator('#setup-step-forge').textContent()).resolves.toContain(`${app.config.baseUrl}/auth/corp-git/callback`);
    await expect(page.locator('#setup-forges').textContent()).resolves.toContain('"clientSecret": "<client secret>"');
    await watched.screenshot('setup-done-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    await expect(
      request(app.url)
        .get('/api/init/status')
        .then((r) => r.body),
    ).resolves.toEqual({ initialized: true });
    await expect(
      request(app.url)
        .get('/api/branding')
        .then((r) => r.body.siteName),
    ).resolves.toBe('Acme Plugins');
    const session = (await watched.context.cookies()).find((c) => c.name === 'registry_session');
    expect(session?.httpOnly).toBe(true);
    // A forge is configured already: the step's way on is "Finish".
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    await page.getByRole('heading', { name: 'The registry is set up' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Open the admin console' }).waitFor();
    const signedIn = await request(app.url)
      .post('/api/auth/sign-in/password')
      .send({ login: 'root', password: 'the first admin password' })
      .expect(200);
    expect(signedIn.body.user.role).toBe('admin');
    await page.goto('/account', { waitUntil: 'networkidle' });
    await expect(page.locator('.account-user').textContent()).resolves.toMatch(/root[\s\S]*Administrator/);
    const closed = await page.goto('/setup', { waitUntil: 'networkidle' });
    expect(new URL(closed!.url()).pathname).toBe('/');
    // The browser reported the refused wrong token (a 401); nothing else may go wrong.
    expect(watched.problems.filter((line) => !/status of 401/.test(line))).toEqual([]);
    expect(watched.problems.length).toBeLessThanOrEqual(1);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
