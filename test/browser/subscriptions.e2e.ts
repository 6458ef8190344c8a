/// <reference lib="dom" />
/**
 * Webhook subscriptions in a real browser (docs/subscriptions.md): subscribe a URL on
 * /account/subscriptions (the signing secret shown once), send a test ping to a receiver on
 * loopback, see the disabled notice on /account; axe finds nothing at 1280 and 375 px.
 */
import { axeViolations } from '../support/axe';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('web front end: webhook subscriptions', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let browser: BrowserSession;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    app = await startTestApp({ SUBSCRIPTION_ALLOW_HOSTS: receiver.host });
    browser = await openBrowser(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver?.stop();
  });

  it('subscribes, shows the secret once, pings, and tells the owner of a disabled subscription', async () => {
    const erin = await userWithSession(app, 'erin-hooks');
    const watched = await browser.newPage({ width: 1280 });
    await watched.context.addCookies([{ name: 'registry_session', value: erin.jwt, url: app.url }]);
    const { page } = watched;
    await page.goto('/account/subscriptions', { waitUntil: 'networkidle' });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/browser`);
    await page.getByLabel('release.yanked').check();
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.getByText('Subscribed. Copy the signing secret now').waitFor();
    await expect(page.getByLabel('Signing secret').inputValue()).resolves.toMatch(/^whsec_/);
    await watched.screenshot('subscriptions-created');

    await page.reload({ waitUntil: 'networkidle' });
    await expect(page.getByLabel('Signing secret').inputValue()).resolves.toBe('');
    await page.getByRole('button', { name: `Send a test ping to ${receiver.url}/browser` }).click();
    await page.getByText(/^Test sent: 200 \(\d+ ms\)$/).waitFor();
    expect(JSON.parse(receiver.received.at(-1)!.body).type).toBe('webhook.ping');
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();

    await app.database.dataSource.query(
      `UPDATE subscription SET disabled_at = now(), disabled_reason = 'deliveries failed for 5 days without a success (last: HTTP 500 from 127.0.0.1)'`,
    );
    const phone = await browser.newPage({ width: 375 });
    await phone.context.addCookies([{ name: 'registry_session', value: erin.jwt, url: app.url }]);
    await phone.page.goto('/account', { waitUntil: 'networkidle' });
    await phone.page.getByText('1 of your webhook subscriptions is disabled').waitFor();
    await phone.page.getByRole('link', { name: 'Manage your webhook subscriptions' }).first().click();
    await phone.page.waitForURL('**/account/subscriptions');
    await phone.page.getByText('deliveries failed for 5 days').waitFor();
    expect(await axeViolations(phone.page)).toEqual([]);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.screenshot('subscriptions-disabled-phone');
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });
});
