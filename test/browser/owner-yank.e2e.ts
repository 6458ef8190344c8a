/// <reference lib="dom" />
/**
 * Yanking from the web: the owner yanks a release on /account with a reason, which the release then
 * shows (there and on the public plugin page), and un-yanks it again; someone else sees no such
 * button, and a forged request (a cross-site form post with the owner's cookie, or a non-owner's
 * call) is refused with nothing changed.
 */
import request from 'supertest';
import { chromiumAvailable, openBrowser, type BrowserSession } from '../support/browser';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const REASON = 'Corrupts the settings file';

describeBrowser('web front end: yanking a release from the account page', () => {
  let w: PublishWorld;
  let browser: BrowserSession;
  let owner: { jwt: string };

  const releases = async () =>
    (await request(w.app.url).get('/api/plugins/yankable').expect(200)).body.releases as {
      version: string;
      yanked: boolean;
      yankReason: string | null;
    }[];
  const yankedRelease = async (version: string) => (await releases()).find((r) => r.version === version);

  beforeAll(async () => {
    w = await publishWorld();
    const publisher = await w.tokenFor('yank-owner', ['publish:*']);
    owner = publisher;
    for (const version of ['1.0.0', '1.1.0']) {
      await w
        .push(publisher.token, 'yankable', {
          manifest: manifestYaml({ name: 'yankable', version, description: 'A plugin to yank' }),
          manifestSource: 'plugin.yaml',
          version,
          assets: [{ name: 'yankable.zip', url: w.forge.asset(`/assets/yankable-${version}.zip`, { size: 100 }) }],
          repoUrl: `${w.forge.url}/acme/yankable`,
        })
        .expect(201);
    }
    browser = await openBrowser(w.app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  it('lets the owner yank a release with a reason, shown beside it, and un-yank it', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await watched.context.addCookies([{ name: 'registry_session', value: owner.jwt, url: w.app.url }]);
    await page.goto('/account', { waitUntil: 'networkidle' });
    await page.locator('summary', { hasText: 'Releases of yankable' }).click();
    await page.getByLabel('Why 1.1.0 is yanked (shown beside it)').fill(REASON);
    await page.getByRole('button', { name: 'Yank 1.1.0' }).click();
    // The page reloads with the result (its releases folded again).
    await page.locator('[data-unyank="yankable"][data-version="1.1.0"]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await expect(page.locator('tr[data-release="1.1.0"] [data-release-state]').textContent()).resolves.toMatch(
      new RegExp(`Yanked\\s+${REASON}`),
    );
    await expect(page.locator('tr[data-release="1.0.0"] [data-release-state]').textContent()).resolves.toContain('Offered');
    await expect(yankedRelease('1.1.0')).resolves.toEqual(expect.objectContaining({ yanked: true, yankReason: REASON }));
    expect((await w.audit('plugin.yank')).map((e) => e.details)).toEqual([expect.objectContaining({ version: '1.1.0', reason: REASON })]);

    await page.goto('/plugins/yankable', { waitUntil: 'networkidle' });
    await expect(page.locator('tr.yanked').textContent()).resolves.toContain(REASON);

    await page.goto('/account', { waitUntil: 'networkidle' });
    await page.locator('summary', { hasText: 'Releases of yankable' }).click();
    await page.getByRole('button', { name: 'Un-yank 1.1.0' }).click();
    await page.locator('form[data-yank="yankable"][data-version="1.1.0"]').waitFor({ state: 'attached', timeout: 30_000 });
    await expect(yankedRelease('1.1.0')).resolves.toEqual(expect.objectContaining({ yanked: false, yankReason: null }));
    expect(watched.problems).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
    await watched.context.close();
  });

  it('shows someone else no yank button, and refuses forged requests with nothing changed', async () => {
    const stranger = await userWithSession(w.app, 'stranger');
    const watched = await browser.newPage();
    const { page } = watched;
    await watched.context.addCookies([{ name: 'registry_session', value: stranger.jwt, url: w.app.url }]);
    for (const path of ['/account', '/plugins/yankable']) {
      await page.goto(path, { waitUntil: 'networkidle' });
      await expect(page.locator('form[data-yank], [data-unyank]').count()).resolves.toBe(0);
    }
    await watched.context.close();

    const before = await releases();
    const auditBefore = (await w.audit()).length;
    // A cross-site form post rides on the owner's cookie but cannot send JSON (refused as a form body, or by the CSRF check).
    for (const type of ['form', 'text/plain']) {
      const forged = await request(w.app.url)
        .post('/api/plugins/yankable/yank')
        .set('Cookie', `registry_session=${owner.jwt}`)
        .type(type)
        .send(type === 'form' ? { version: '1.0.0', reason: 'forged' } : '{"version":"1.0.0","reason":"forged"}');
      expect([403, 415]).toContain(forged.status);
    }
    // A non-owner's own session, as JSON, is not an owner's.
    await request(w.app.url)
      .post('/api/plugins/yankable/yank')
      .set('Cookie', `registry_session=${stranger.jwt}`)
      .send({ version: '1.0.0', reason: 'forged' })
      .expect(403);
    await request(w.app.url)
      .post('/api/plugins/yankable/yank')
      .set('Authorization', `Bearer ${stranger.jwt}`)
      .send({ version: '1.0.0', undo: true })
      .expect(403);
    await request(w.app.url).post('/api/plugins/yankable/yank').send({ version: '1.0.0' }).expect(401);
    expect(await releases()).toEqual(before);
    expect((await w.audit()).filter((e) => e.action === 'plugin.yank' || e.action === 'plugin.unyank')).toHaveLength(2);
    expect((await w.audit()).length - auditBefore).toBeLessThanOrEqual(2);
    expect(JSON.stringify(await w.audit())).not.toContain('forged');
  });
});
