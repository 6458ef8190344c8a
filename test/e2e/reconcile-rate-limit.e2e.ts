/**
 * The periodic reconcile honours a forge's rate limit: a forge that answers 429 (Retry-After) or
 * 403 with an exhausted quota (X-RateLimit-Remaining: 0) is left alone until the time it named,
 * while plugins on other forges are still reconciled.
 */
import { Reconciler } from '../../src/publishing/webhooks/reconciler';
import { WebhookWorld } from '../support/webhook-world';

describe('reconcile under a forge rate limit', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    w = await WebhookWorld.open();
  });
  afterAll(() => w?.close());

  it('skips a forge that said to wait until then, and keeps reconciling the others', async () => {
    const limited = await w.plugin('github');
    const other = await w.plugin('gitlab');
    const limitedReleases = `${w.apiPath('github')}/repos/${limited.repo}/releases`;
    w.forge.route('GET', limitedReleases, (_req, res) => {
      res.writeHead(429, { 'Retry-After': '3600', 'Content-Type': 'application/json' });
      res.end('{"message":"slow down"}');
    });
    const otherAssets = w.releaseFiles(other, 'v2.0.0', w.manifest(other, '2.0.0'));
    w.forge.json('GET', `${w.apiPath('gitlab')}/projects/${encodeURIComponent(other.repo).replace(/\./g, '%2E')}/releases`, [
      { tag_name: 'v2.0.0', upcoming_release: false, assets: { links: otherAssets.map((a) => ({ name: a.name, url: a.url })) } },
    ]);
    const reconciler = w.app.app.get(Reconciler);
    const asked = () => w.forge.requests.filter((r) => r.url.startsWith(limitedReleases)).length;

    expect(await reconciler.reconcileAll()).toBe(1);
    expect(asked()).toBe(1);
    // The next pass within the hour does not ask the limited forge again; the other forge's
    // release was queued by the first pass already.
    expect(await reconciler.reconcileAll()).toBe(0);
    expect(asked()).toBe(1);
    await w.runWorker();
    expect(await w.count('release', other.slug)).toBe(2);
  });
});
