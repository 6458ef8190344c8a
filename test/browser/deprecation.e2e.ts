/// <reference lib="dom" />
/**
 * Deprecating a plugin in a real browser
 * (docs/publishing-from-ci.md#deprecating-a-plugin): its owner marks it deprecated on the account
 * page, with a message and a replacement; the plugin's page says so with a link to the
 * replacement, catalogue cards carry a Deprecated badge and the plugin sinks to the end; the owner
 * undoes it. Both pages pass axe.
 */
import { axeViolations } from '../support/axe';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('web front end: deprecating a plugin', () => {
  let w: PublishWorld;
  let browser: BrowserSession;
  let alice: { token: string; jwt: string };

  const body = (slug: string) => ({
    manifest: manifestYaml({ name: slug, version: '1.0.0', description: `The ${slug} plugin` }),
    manifestSource: 'plugin.yaml',
    version: '1.0.0',
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/1.0.0/${slug}.zip`, { size: 200, seed: slug.length }) }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });

  beforeAll(async () => {
    w = await publishWorld();
    alice = await w.tokenFor('alice', ['publish:*']);
    // `aged-thing` comes first by name until it is deprecated.
    for (const slug of ['aged-thing', 'fresh-thing']) await w.push(alice.token, slug, body(slug)).expect(201);
    browser = await openBrowser(w.app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  it('the owner deprecates it on the account page; its page, the cards and the order show it; the owner undoes it', async () => {
    const watched = await browser.newPage({ width: 1280 });
    await watched.context.addCookies([{ name: 'registry_session', value: alice.jwt, url: w.app.url }]);
    const { page } = watched;

    await page.goto('/account', { waitUntil: 'networkidle' });
    await page.getByText('Deprecation of aged-thing').click();
    await page.getByLabel('Why, and what to use instead').first().fill('No longer maintained: fresh-thing does it all.');
    await page.getByLabel('Replacement plugin (slug, optional)').first().fill('fresh-thing');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Deprecate', exact: true }).first().click()]);
    await page.getByRole('button', { name: 'Undo deprecation' }).waitFor();
    await expect(page.locator('.account-plugin', { hasText: 'aged-thing' }).locator('.badge.deprecated').textContent()).resolves.toBe(
      'Deprecated',
    );
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/plugins/aged-thing', { waitUntil: 'networkidle' });
    const notice = page.getByRole('region', { name: 'This plugin is deprecated' });
    await expect(notice.textContent()).resolves.toContain('No longer maintained: fresh-thing does it all.');
    await expect(notice.getByRole('link', { name: 'fresh-thing' }).getAttribute('href')).resolves.toBe('/plugins/fresh-thing');
    expect(await axeViolations(page)).toEqual([]);
    await watched.screenshot('deprecated-plugin-page');

    await page.goto('/plugins?sort=name', { waitUntil: 'networkidle' });
    const cards = page.locator('.plugin-card h3 a');
    await expect(cards.allTextContents()).resolves.toEqual(['fresh-thing', 'aged-thing']);
    await expect(page.locator('.plugin-card', { hasText: 'aged-thing' }).locator('.badge.deprecated').textContent()).resolves.toBe(
      'Deprecated',
    );

    await page.goto('/account', { waitUntil: 'networkidle' });
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Undo deprecation' }).click()]);
    await page.getByRole('button', { name: 'Undo deprecation' }).waitFor({ state: 'detached' });
    await page.getByText('Deprecation of aged-thing').waitFor();
    await expect(page.locator('.badge.deprecated').count()).resolves.toBe(0);
    await page.goto('/plugins/aged-thing', { waitUntil: 'networkidle' });
    await expect(page.locator('.deprecation-notice').count()).resolves.toBe(0);

    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });
});
