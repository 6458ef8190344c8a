/// <reference lib="dom" />
/**
 * Verified provenance on the plugin page, in a real browser
 * (docs/verifying-downloads.md#build-provenance): a release published with a
 * Sigstore bundle that verified says "Built by <repository> <workflow> at <ref>" in its integrity
 * section; one with another attestation says it went unchecked; one without says nothing. The
 * admin kinds page offers the "require provenance" switch. Pages pass axe.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations } from '../support/axe';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { assetChunks } from '../support/fake-forge';
import { provenanceWorld } from '../support/provenance-world';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const ASSET = { size: 300, seed: 3 };

describeBrowser('web front end: build provenance on the plugin page', () => {
  let w: PublishWorld;
  let browser: BrowserSession;
  let dir: string;
  let admin: string;

  const body = (slug: string, attestation: unknown) => ({
    manifest: manifestYaml({ name: slug, version: '1.0.0', description: `The ${slug} plugin` }),
    manifestSource: 'plugin.yaml',
    version: '1.0.0',
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/1.0.0/${slug}.zip`, ASSET) }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
    ...(attestation ? { attestation } : {}),
  });

  beforeAll(async () => {
    const sigstore = await provenanceWorld();
    dir = mkdtempSync(join(tmpdir(), 'prov-browser-'));
    writeFileSync(join(dir, 'root.json'), JSON.stringify(sigstore.trustedRoot));
    w = await publishWorld({ PROVENANCE_TRUSTED_ROOTS: join(dir, 'root.json') });
    const alice = await w.tokenFor('alice', ['publish:*']);
    admin = (await userWithSession(w.app, 'root', 'admin')).jwt;
    const sha256 = createHash('sha256')
      .update(Buffer.concat([...assetChunks(ASSET)]))
      .digest('hex');
    const bundle = await sigstore.bundle({
      san: `${w.forge.url}/acme/attested/.github/workflows/release.yml@refs/tags/v1.0.0`,
      subjects: { 'attested.zip': sha256 },
    });
    await w.push(alice.token, 'attested', body('attested', bundle)).expect(201);
    await w.push(alice.token, 'loosely', body('loosely', { predicateType: 'https://slsa.dev/provenance/v1' })).expect(201);
    await w.push(alice.token, 'bare', body('bare', null)).expect(201);
    browser = await openBrowser(w.app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says who built a verified release, notes an unchecked attestation, and says nothing without one', async () => {
    const watched = await browser.newPage({ width: 1280 });
    const { page } = watched;

    await page.goto('/plugins/attested', { waitUntil: 'networkidle' });
    const line = page.locator('#built-by');
    await expect(line.textContent()).resolves.toContain(
      `Built by ${w.forge.url}/acme/attested .github/workflows/release.yml at refs/tags/v1.0.0`,
    );
    await expect(line.textContent()).resolves.toContain('verified when the release was published');
    expect(await axeViolations(page)).toEqual([]);
    await watched.screenshot('provenance-built-by');

    await page.goto('/plugins/loosely', { waitUntil: 'networkidle' });
    await expect(page.locator('.provenance').textContent()).resolves.toContain('without verifying it');
    await expect(page.locator('#built-by').count()).resolves.toBe(0);

    await page.goto('/plugins/bare', { waitUntil: 'networkidle' });
    await expect(page.locator('.provenance').count()).resolves.toBe(0);

    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('lets an admin require provenance for a kind on the kinds page', async () => {
    const watched = await browser.newPage({ width: 1280 });
    await watched.context.addCookies([{ name: 'registry_session', value: admin, url: w.app.url }]);
    const { page } = watched;
    await page.goto('/admin/kinds', { waitUntil: 'networkidle' });
    const create = page.locator('form', { has: page.locator('#kind-new-key') });
    await create.getByLabel('Key').fill('signed');
    await create.getByLabel('Label').fill('Signed');
    await create.getByLabel(/Require verified provenance/).check();
    await Promise.all([page.waitForEvent('load'), create.getByRole('button', { name: 'Create kind' }).click()]);
    await page.getByText('Signed', { exact: true }).first().waitFor();
    const [row] = await w.app.database.dataSource.query(`SELECT require_provenance FROM kind WHERE key = 'signed'`);
    expect(row.require_provenance).toBe(true);
    await page.locator('summary', { hasText: 'Signed' }).click();
    await expect(page.locator('#kind-signed-provenance').isChecked()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  });
});
