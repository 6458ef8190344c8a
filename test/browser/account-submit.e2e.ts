/// <reference lib="dom" />
/**
 * Submitting a plugin in a real browser (docs/web.md): a signed-in user with a forge token gives a
 * repository URL; when the forge refuses to install the hook, the page shows the webhook URL and
 * the secret once, with copy buttons and the steps to add it by hand.
 */
import { linkedUserWithSession } from '../support/sessions';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { WebhookWorld } from '../support/webhook-world';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('web front end: submitting a plugin', () => {
  let w: WebhookWorld;
  let browser: BrowserSession;

  beforeAll(async () => {
    w = await WebhookWorld.open({}, {}, true);
    const api = w.apiPath('github');
    w.forge.route('GET', `${api}/repos/:owner/:repo`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ full_name: `${params.owner}/${params.repo}`, default_branch: 'main', permissions: { admin: true, push: true } }),
      );
    });
    w.forge.route('GET', `${api}/repos/:owner/:repo/contents/.plugin.yaml`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`name: ${params.repo}\nversion: 1.0.0\ndescription: Submitted in a browser\n`);
    });
    w.forge.route('POST', `${api}/repos/:owner/:repo/hooks`, (_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"message":"Not Found"}');
    });
    browser = await openBrowser(w.app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  it('shows the claimed plugin and, since the hook could not be installed, its URL and secret once', async () => {
    const dana = await linkedUserWithSession(w.app, 'fakehub', 'dana', '2001', 'gho_dana');
    for (const [name, width] of [
      ['submit-result-desktop', 1280],
      ['submit-result-phone', 375],
    ] as const) {
      const watched = await browser.newPage({ width });
      await watched.context.addCookies([{ name: 'registry_session', value: dana.jwt, url: w.app.url }]);
      const { page } = watched;
      await page.goto('/submit', { waitUntil: 'networkidle' });
      const slug = `browser-submit-${width}`;
      await page.getByLabel('Repository URL').fill(`${w.webUrl('github')}/dana/${slug}`);
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await page.getByText(`Submitted: ${slug} is yours.`).waitFor({ timeout: 30_000 });
      await expect(page.getByLabel('Payload URL').inputValue()).resolves.toBe(`${w.app.config.baseUrl}/api/webhooks/release`);
      await expect(page.getByLabel('Secret', { exact: true }).inputValue()).resolves.toMatch(/^[0-9a-f]{64}$/);
      await expect(page.getByRole('link', { name: 'Open the plugin page' }).getAttribute('href')).resolves.toBe(`/plugins/${slug}`);
      await watched.screenshot(name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(watched.problems).toEqual([]);
      expect(watched.foreignRequests).toEqual([]);
      await watched.context.close();
    }
  });
});
