import { adminRefusalCallers, expectAdminOnly } from '../support/admin-refusals';
import { WebhookWorld, type WebhookPlugin } from '../support/webhook-world';

interface Listed {
  id: string;
  slug: string;
  tag: string;
  status: string;
  reason: string | null;
  createdAt: string;
}

describe('GET /api/admin/deliveries', () => {
  let w: WebhookWorld;
  let alpha: WebhookPlugin;
  let beta: WebhookPlugin;

  const list = (query = '', jwt = w.adminJwt) => w.as(jwt, 'get', `/api/admin/deliveries${query}`);

  beforeAll(async () => {
    w = await WebhookWorld.open();
    alpha = await w.plugin('github');
    beta = await w.plugin('gitea');
    // alpha: one delivery ingested, one failed (strict mode, no manifest asset); beta: one failed, then one left queued.
    await w
      .deliver('github', alpha.secret, w.releaseEvent(alpha, 'v1.0.0', w.releaseFiles(alpha, 'v1.0.0', w.manifest(alpha, '1.0.0'))))
      .expect(202);
    await w.deliver('github', alpha.secret, w.releaseEvent(alpha, 'v2.0.0', w.releaseFiles(alpha, 'v2.0.0', null))).expect(202);
    await w.deliver('gitea', beta.secret, w.releaseEvent(beta, 'v3.0.0', w.releaseFiles(beta, 'v3.0.0', null))).expect(202);
    await w.runWorker();
    await w
      .deliver('gitea', beta.secret, w.releaseEvent(beta, 'v4.0.0', w.releaseFiles(beta, 'v4.0.0', w.manifest(beta, '4.0.0'))))
      .expect(202);
  });
  afterAll(() => w?.close());

  it('refuses anonymous callers, non-admins (owners included) and publisher tokens', async () => {
    await expectAdminOnly(w.app, await adminRefusalCallers(w.app), 'get', '/api/admin/deliveries');
    await list('', w.owner.jwt).expect(403);
  });

  it("lists every plugin's deliveries newest first, each with its plugin's slug", async () => {
    const res = await list().expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 4, totalPages: 1 });
    const items = res.body.deliveries as Listed[];
    expect(items.map((d) => [d.slug, d.tag, d.status])).toEqual([
      [beta.slug, 'v4.0.0', 'queued'],
      [beta.slug, 'v3.0.0', 'failed'],
      [alpha.slug, 'v2.0.0', 'failed'],
      [alpha.slug, 'v1.0.0', 'succeeded'],
    ]);
    const times = items.map((d) => Date.parse(d.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The owner's per-plugin list and the admin-wide one describe a delivery alike.
    const [own] = (await w.as(w.owner.jwt, 'get', `/api/plugins/${alpha.slug}/deliveries`).expect(200)).body.deliveries;
    expect(items[2]).toEqual({ ...own, slug: alpha.slug });
    expect(items[2]).toMatchObject({ reason: 'manifest-asset-missing', attempts: 1, provider: 'github', source: 'webhook' });
  });

  it('filters by status, by plugin, and by both', async () => {
    const failed = (await list('?status=failed').expect(200)).body;
    expect(failed.total).toBe(2);
    expect((failed.deliveries as Listed[]).map((d) => d.slug)).toEqual([beta.slug, alpha.slug]);
    const ofAlpha = (await list(`?slug=${alpha.slug}`).expect(200)).body;
    expect((ofAlpha.deliveries as Listed[]).map((d) => d.tag)).toEqual(['v2.0.0', 'v1.0.0']);
    const both = (await list(`?slug=${beta.slug}&status=queued`).expect(200)).body;
    expect((both.deliveries as Listed[]).map((d) => d.tag)).toEqual(['v4.0.0']);
    expect((await list('?slug=no-such-plugin').expect(200)).body).toMatchObject({ deliveries: [], total: 0, totalPages: 0 });
  });

  it('pages through the list without overlap', async () => {
    const one = (await list('?limit=3').expect(200)).body;
    const two = (await list('?limit=3&page=2').expect(200)).body;
    expect(one).toMatchObject({ page: 1, limit: 3, total: 4, totalPages: 2 });
    expect(two).toMatchObject({ page: 2, limit: 3, total: 4, totalPages: 2 });
    expect(one.deliveries).toHaveLength(3);
    expect(two.deliveries).toHaveLength(1);
    const all = (await list().expect(200)).body.deliveries as Listed[];
    expect([...one.deliveries, ...two.deliveries].map((d: Listed) => d.id)).toEqual(all.map((d) => d.id));
    expect((await list('?page=3&limit=3').expect(200)).body.deliveries).toEqual([]);
  });

  it.each([
    ['?status=broken', '/status'],
    ['?page=0', '/page'],
    ['?page=x', '/page'],
    ['?limit=0', '/limit'],
    ['?limit=101', '/limit'],
  ])('answers 400 for %s, naming the field', async (query, path) => {
    const res = await list(query).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('a failed delivery from the list replays through the per-plugin endpoint and leaves the failed filter', async () => {
    const [failed] = (await list(`?status=failed&slug=${alpha.slug}`).expect(200)).body.deliveries as Listed[];
    await w.as(w.adminJwt, 'post', `/api/plugins/${failed.slug}/deliveries/${failed.id}/replay`).expect(200);
    expect((await list(`?status=failed&slug=${alpha.slug}`).expect(200)).body.total).toBe(0);
    expect((await list(`?status=queued&slug=${alpha.slug}`).expect(200)).body.deliveries.map((d: Listed) => d.id)).toEqual([failed.id]);
  });
});
