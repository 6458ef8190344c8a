/// <reference lib="dom" />
/**
 * The install wizard on a registry with no forge, in a real browser: the first admin gets a
 * passkey (Chromium's virtual authenticator) through the account's own endpoints, the forge step
 * is skipped with "Finish without a forge", and the admin signs out and back in with the passkey.
 */
import type { Page } from 'playwright-core';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { axeViolations } from '../support/axe';
import { freePort } from '../support/free-port';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

const INIT_TOKEN = 'bootstrap-token-for-the-passkey-wizard';

/** A platform authenticator that holds passkeys and verifies the user (as in local-sign-in.e2e.ts). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describeBrowser('web front end: the install wizard without a forge', () => {
  let app: TestApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    // WebAuthn needs a host name for the relying party (an IP address is not one): localhost.
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    app = await startTestApp({ PORT: String(port), BASE_URL: origin, INIT_TOKEN });
    browser = await openBrowser(origin);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('gives the first admin a passkey, finishes without a forge, and the passkey signs the admin in again', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto('/setup', { waitUntil: 'networkidle' });
    await page.locator('input#setup-token').fill(INIT_TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Site name', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Login', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.getByLabel('Login', { exact: true }).fill('root');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByText('Done: you are signed in as root.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#setup-step-signin-title').textContent()).resolves.toBe('How the administrator signs in');
    await expect(page.locator('main').textContent()).resolves.not.toContain('no administrator yet');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Name of the new passkey').fill('Wizard key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor({ timeout: 30_000 });
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#setup-step-forge').waitFor({ state: 'visible', timeout: 30_000 });
    await expect(page.locator('#setup-forge-none').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Finish without a forge' }).click();
    await page.getByRole('heading', { name: 'The registry is set up' }).waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await watched.screenshot('setup-without-forge-done-desktop');

    await page.getByRole('link', { name: 'Open the admin console' }).click();
    await page.waitForURL((url) => url.pathname === '/admin', { timeout: 30_000 });
    await page.goto('/account', { waitUntil: 'networkidle' });
    await expect(page.locator('#passkey-list li').textContent()).resolves.toContain('Wizard key');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
    await page.goto('/sign-in', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/account', { timeout: 30_000 });
    await expect(page.locator('.account-user').textContent()).resolves.toMatch(/root[\s\S]*Administrator/);
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
