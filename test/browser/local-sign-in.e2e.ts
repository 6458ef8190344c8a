/// <reference lib="dom" />
/**
 * Sign-in without a forge in a real browser
 * (docs/administering.md#sign-in-without-a-forge), on an instance with no OAuth forge: the
 * first sign-in through a one-time link, a passkey added on /account with Chromium's virtual
 * authenticator (CTAP2, internal, resident keys, user verification), sign-out and back in with
 * the passkey, the link refused when used again, a password set on the account and used on the
 * (script-free) sign-in form, an account locked after five wrong passwords, and a change made from
 * an old session after the page stepped up with the passkey. axe-core finds
 * nothing on the pages at 1280 and 375 px.
 */
import type { CDPSession, Page } from 'playwright-core';
import { issueSignInLink } from '../../src/accounts/local-sign-in/sign-in-links';
import { UsersRepository } from '../../src/platform/users/users.repository';
import { chromiumAvailable, openBrowser, type BrowserSession, type WatchedPage } from '../support/browser';
import { axeViolations } from '../support/axe';
import { freePort } from '../support/free-port';
import { startTestApp, type TestApp } from '../support/test-app';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** Chromium's virtual authenticator: a platform authenticator that holds passkeys and verifies the user. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
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

describeBrowser('web front end: sign-in without a forge', () => {
  let app: TestApp;
  let browser: BrowserSession;
  let origin: string;

  /** A printed sign-in link for a local user (what `registry users sign-in-link` prints). */
  const linkFor = async (login: string) => {
    const [user] = await new UsersRepository(app.database.dataSource).findByLogin(login, 'local');
    return (
      await issueSignInLink(app.database.dataSource, { userId: user.id, login, baseUrl: app.config.baseUrl, now: new Date(), via: 'cli' })
    ).url;
  };
  /** Follows a printed link and presses its button, as a person does (following alone signs nobody in). */
  const followLink = async (page: Page, link: string) => {
    await page.goto(link, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await page.waitForLoadState('networkidle');
  };

  beforeAll(async () => {
    // WebAuthn needs a host name for the relying party (an IP address is not one): localhost.
    const port = await freePort();
    origin = `http://localhost:${port}`;
    app = await startTestApp({ PORT: String(port), BASE_URL: origin });
    const users = new UsersRepository(app.database.dataSource);
    await users.createLocal({ login: 'alice', email: null, role: 'admin' });
    await users.createLocal({ login: 'bob', email: null, role: 'user' });
    browser = await openBrowser(origin);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in first with a link, adds a passkey, signs out and back in with it, and refuses the link again', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    const link = await linkFor('alice');
    await page.goto(link, { waitUntil: 'networkidle' });
    expect(new URL(page.url()).pathname).toBe('/auth/link');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign-in link');
    expect(await axeViolations(page)).toEqual([]);
    // Following the link again (a scanner would) still signs nobody in and uses nothing up.
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await page.waitForURL((url) => url.pathname === '/account', { timeout: 30_000 });
    await expect(page.locator('.account-user').textContent()).resolves.toContain('alice');
    await expect(page.getByText('No passkeys yet.').isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Name of the new passkey').fill('This laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#passkey-list li').count()).resolves.toBe(1);
    await expect(page.locator('#passkey-list li').textContent()).resolves.toContain('This laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    expect(credentials[0].rpId).toBe('localhost');
    await watched.screenshot('local-sign-in-passkey-added-desktop');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
    await page.goto('/sign-in', { waitUntil: 'networkidle' });
    expect(await axeViolations(page)).toEqual([]);
    await watched.screenshot('local-sign-in-desktop');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/account', { timeout: 30_000 });
    await expect(page.locator('.account-user').textContent()).resolves.toContain('alice');
    await expect(page.locator('#passkey-list li').textContent()).resolves.not.toContain('never used');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0].signCount).toBeGreaterThan(0);

    await page.goto(link, { waitUntil: 'networkidle' });
    const [reused] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/sign-in/link'),
      page.getByRole('button', { name: 'Continue signing in' }).click(),
    ]);
    expect(reused.status()).toBe(410);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/sign-in/link');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign-in link');
    await expect(page.getByText('This sign-in link was used already. Each link signs in once.').isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems.filter((line) => !/status of 410/.test(line))).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('asks for the passkey when a change needs a step-up (the session signed in over 10 minutes ago), then makes it', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await virtualAuthenticator(page);
    await followLink(page, await linkFor('bob'));
    await page.getByLabel('Name of the new passkey').fill('First');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added.').waitFor({ timeout: 30_000 });
    const [bob] = await new UsersRepository(app.database.dataSource).findByLogin('bob', 'local');
    await app.database.dataSource.query(`UPDATE user_session SET created_at = now() - interval '1 hour' WHERE user_id = $1`, [bob.id]);

    // The first try answers step-up-required; the page confirms with the passkey and sends it again.
    const refusals: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/auth/me/passkeys/') && response.status() === 403)
        refusals.push(response.status());
    });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove the passkey First' }).click();
    await page.getByText('Passkey removed.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#passkey-list li').count()).resolves.toBe(0);
    expect(refusals).toEqual([403]);
    const stepUps = await app.database.dataSource.query(
      `SELECT details FROM audit_entry WHERE action = 'user.step_up' AND actor_user_id = $1`,
      [bob.id],
    );
    expect(stepUps.map((row: { details: { method: string } }) => row.details.method)).toEqual(['passkey']);
    expect(watched.problems.filter((line) => !/status of 403/.test(line))).toEqual([]);
    await watched.context.close();
  });

  it('sets a password on the account and signs in with it on the form, on a phone', async () => {
    const watched = await browser.newPage({ width: 375 });
    const { page } = watched;
    await followLink(page, await linkFor('alice'));
    await page.getByLabel('New password', { exact: true }).fill('a long enough password');
    await page.getByLabel('Repeat the new password').fill('a long enough password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password saved.').waitFor({ timeout: 30_000 });
    await expect(page.locator('#password-state').textContent()).resolves.toMatch(/^You have a password, last set \d{4}-\d{2}-\d{2}\.$/);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await watched.screenshot('local-sign-in-account-phone');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });

    await page.goto('/sign-in', { waitUntil: 'networkidle' });
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await watched.screenshot('local-sign-in-phone');
    await page.getByLabel('Login').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account', { timeout: 30_000 });
    await expect(page.locator('.account-user').textContent()).resolves.toContain('alice');
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });

  it('locks an account after five wrong passwords, saying only that the login or password is wrong', async () => {
    // bob gets a password through his own first sign-in.
    const setup = await browser.newPage();
    await followLink(setup.page, await linkFor('bob'));
    await setup.page.getByLabel('New password', { exact: true }).fill('bob has a good password');
    await setup.page.getByLabel('Repeat the new password').fill('bob has a good password');
    await setup.page.getByRole('button', { name: 'Set password' }).click();
    await setup.page.getByText('Password saved.').waitFor({ timeout: 30_000 });
    await setup.context.close();

    const watched: WatchedPage = await browser.newPage();
    const { page } = watched;
    const attempt = async (password: string) => {
      await page.goto('/sign-in', { waitUntil: 'networkidle' });
      await page.getByLabel('Login').fill('bob');
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.has('error'), { timeout: 30_000 });
      return page.getByRole('alert').textContent();
    };
    for (let i = 1; i <= 5; i++) await expect(attempt(`wrong password number ${i}`)).resolves.toBe('The login or the password is wrong.');
    // The right password now gets the very same answer: the account is locked for a while.
    await expect(attempt('bob has a good password')).resolves.toBe('The login or the password is wrong.');
    // The login is not sent back in the address (people type passwords into it): the field starts empty.
    expect(new URL(page.url()).searchParams.has('login')).toBe(false);
    await expect(page.getByLabel('Login').inputValue()).resolves.toBe('');
    expect(await axeViolations(page)).toEqual([]);
    await watched.screenshot('local-sign-in-refused-desktop');
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
