/// <reference lib="dom" />
/**
 * The account pages in a real browser (docs/web.md): sign in through the (fake) forge, see the
 * account with a plugin's failed delivery and replay it, create a publisher token shown once with
 * a CI snippet, copy it, see it listed, revoke it; the submit page shows the API's refusal; sign out.
 */
import request from 'supertest';
import { FakeForge } from '../support/fake-forge';
import { FakeOAuthApp } from '../support/fake-oauth';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** Lets a page reach the fake forge too: the sign-in dance goes through its authorize page. */
async function allowForge(watched: WatchedPage, forge: FakeForge): Promise<void> {
  await watched.context.route(`${forge.url}/**`, (route) => route.continue());
}

async function signIn(watched: WatchedPage, forge: FakeForge, screenshot?: string): Promise<void> {
  await allowForge(watched, forge);
  await watched.page.goto('/sign-in', { waitUntil: 'networkidle' });
  if (screenshot) await watched.screenshot(screenshot);
  await watched.page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await watched.page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
}

describeBrowser('web front end: sign-in and the account page', () => {
  let forge: FakeForge;
  let oauth: FakeOAuthApp;
  let app: TestApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    oauth = new FakeOAuthApp(forge, 'github');
    oauth.nextUser = { id: 4242, login: 'octo-author', email: 'octo@example.test' };
    app = await startTestApp({ FORGES: JSON.stringify([oauth.instance('github')]), FETCH_ALLOW_HOSTS: new URL(forge.url).host });
    browser = await openBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await forge?.stop();
  });

  it('answers the account page with 401 and a sign-in link, and lists the forge on /sign-in, all without script', async () => {
    const denied = await request(app.url).get('/account').expect(401);
    expect(denied.headers['content-type']).toMatch(/^text\/html/);
    expect(denied.text).toContain('href="/sign-in"');
    const signInPage = await request(app.url).get('/sign-in').expect(200);
    expect(signInPage.text).toContain('<a class="button" href="/auth/github/login" data-forge="github">Sign in with GitHub</a>');
    expect(signInPage.text).not.toContain(oauth.clientSecret);
    expect(signInPage.text).not.toContain(oauth.clientId);
  });

  it('signs in through the forge, shows the account, and a failed delivery can be replayed', async () => {
    const watched = await browser.newPage();
    await signIn(watched, forge, 'sign-in-desktop');
    const [user] = await app.database.dataSource.query(`SELECT id FROM user_account WHERE login = 'octo-author'`);
    const [plugin] = await app.database.dataSource.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, description) VALUES ('octo-tool', 'octo-tool', $1, $2, 'A <b>tool</b>') RETURNING id`,
      [`${forge.url}/octo-author/octo-tool`, `127.0.0.1/octo-author/octo-tool`],
    );
    await app.database.dataSource.query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [plugin.id, user.id]);
    await app.database.dataSource.query(
      `INSERT INTO webhook_delivery (plugin_id, provider, delivery_id, event, source, repo_url, tag, payload_sha256, status, reason, detail, attempts, next_attempt_at)
       VALUES ($1, 'github', 'd-1', 'release', 'webhook', $2, 'v1.0.0', $3, 'failed', 'manifest-asset-missing', 'the release has no asset', 3, now())`,
      [plugin.id, `${forge.url}/octo-author/octo-tool`, 'a'.repeat(64)],
    );
    await watched.page.goto('/account', { waitUntil: 'networkidle' });
    await expect(watched.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your account');
    await expect(watched.page.locator('.account-user').textContent()).resolves.toContain('octo-author');
    const delivery = watched.page.locator('#deliveries-octo-tool tbody tr');
    await expect(delivery.textContent()).resolves.toContain('manifest-asset-missing');
    await expect(delivery.textContent()).resolves.toContain('the release has no asset');
    await expect(watched.page.locator('.account-plugin p').first().textContent()).resolves.toBe('A <b>tool</b>');
    await watched.screenshot('account-desktop');
    await watched.page.getByRole('button', { name: 'Replay the delivery of v1.0.0' }).click();
    await watched.page.getByText('Queued again.').waitFor({ timeout: 30_000 });
    await expect(delivery.locator('[data-delivery-status]').textContent()).resolves.not.toBe('failed');
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('creates a token shown once with a CI snippet, copies it, lists it, and revokes it', async () => {
    const watched = await browser.newPage();
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await signIn(watched, forge);
    const { page } = watched;
    await page.goto('/account', { waitUntil: 'networkidle' });
    await page.getByLabel('Name', { exact: true }).fill('GitHub Actions');
    await page.getByLabel('publish:octo-tool').check();
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const plaintext = page.getByLabel('Your new token');
    await plaintext.waitFor({ state: 'visible', timeout: 30_000 });
    const token = await plaintext.inputValue();
    expect(token).toMatch(/^prt_[A-Za-z0-9]{40}$/);
    // One workflow per forge, the first open; each from this registry's configured public address (BASE_URL).
    await expect(page.locator('details.ci-snippet').count()).resolves.toBe(3);
    const snippet = await page.locator('#ci-snippet-github').textContent();
    expect(snippet).toContain('node registry-cli/registry.js publish');
    expect(snippet).toContain('curl --fail-with-body -sSL -o registry.js "$REGISTRY_URL/cli/registry.js"');
    expect(snippet).toContain('REGISTRY_TOKEN: ${{ secrets.REGISTRY_TOKEN }}');
    expect(snippet).toContain(`REGISTRY_URL: "${app.url}"`);
    expect(snippet).toMatch(/REGISTRY_CLI_SHA256: "[0-9a-f]{64}"/);
    for (const forge of ['github', 'gitlab', 'forgejo'])
      expect(await page.locator(`#ci-snippet-${forge}`).textContent()).not.toContain(token);
    const row = page.locator('#token-table tbody tr', { hasText: 'GitHub Actions' });
    await expect(row.textContent()).resolves.toContain('publish:octo-tool');
    await expect(row.textContent()).resolves.toContain(token.slice(0, 12));
    await page.locator('#token-created').getByRole('button', { name: 'Copy', exact: true }).click();
    await page.locator('#token-created').getByRole('button', { name: 'Copied', exact: true }).waitFor({ timeout: 30_000 });
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(token);
    await watched.screenshot('account-token-created-desktop');
    // The token works for the API, and shows in the list the server renders.
    const listed = await request(app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${token}`);
    expect(listed.status).toBe(401); // a publisher token cannot manage tokens, but it is known
    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.getByLabel('Your new token').isVisible()).resolves.toBe(false);
    await expect(page.locator('#token-table tbody tr', { hasText: 'GitHub Actions' }).count()).resolves.toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke the token GitHub Actions' }).click();
    await page.getByText('Token revoked.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#token-table tbody tr').count()).resolves.toBe(0);
    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.locator('#token-table tbody tr').count()).resolves.toBe(0);
    await expect(page.getByText('No tokens yet.').isVisible()).resolves.toBe(true);
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('reads on a phone, shows the API refusal on the submit page, and signs out', async () => {
    const watched = await browser.newPage({ width: 375 });
    await signIn(watched, forge, 'sign-in-phone');
    expect(await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const { page } = watched;
    await page.goto('/account', { waitUntil: 'networkidle' });
    await watched.screenshot('account-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.goto('/submit', { waitUntil: 'networkidle' });
    await page.getByLabel('Repository URL').fill('https://example.com/acme/tool');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const status = page.locator('#submit-status[data-kind="error"]');
    await status.waitFor({ timeout: 30_000 });
    await expect(status.textContent()).resolves.toBe('The registry refused: repoUrl: is not on a forge this registry can sign you in with');
    await watched.screenshot('submit-error-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // The browser itself reports the refused call (a 400); nothing else may go wrong.
    expect(watched.problems.filter((line) => !/status of 400/.test(line))).toEqual([]);
    watched.problems.length = 0;
    await page.goto('/account', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
    const after = await page.goto('/account');
    expect(after?.status()).toBe(401);
    expect(watched.problems.filter((line) => !/status of 401/.test(line))).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
