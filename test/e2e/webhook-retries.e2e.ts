/**
 * Network trouble during a delivery's ingest is retried with backoff (never a validation
 * failure); a forge that recovers gets its release ingested once, one that does not fails the
 * delivery after the last attempt, audited. On PostgreSQL the jobs are pg-boss's.
 */
import { WebhookWorld } from '../support/webhook-world';

describe('webhook delivery retries', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    // No backoff and two attempts, so a test sees the retry without waiting minutes; a lease
    // short enough to outlast within a test.
    w = await WebhookWorld.open({}, { backoffBaseMs: 0, maxAttempts: 2, leaseMs: 4_000 });
  });
  afterAll(() => w?.close());

  const deliveries = async (slug: string) =>
    (await w.as(w.owner.jwt, 'get', `/api/plugins/${slug}/deliveries`).expect(200)).body.deliveries;

  /** Runs the worker until the delivery is no longer queued or processing (pg-boss may hold a retry for a second or two). */
  async function settle(slug: string): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await w.runWorker();
      const [delivery] = await deliveries(slug);
      if (!['queued', 'processing'].includes(delivery.status) || Date.now() > deadline) return delivery;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  function flakyBinary(path: string, failures: number): () => number {
    let served = 0;
    w.forge.route('GET', path, (_req, res) => {
      served += 1;
      if (served <= failures) {
        res.writeHead(503);
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '3' });
      res.end('bin');
    });
    return () => served;
  }

  it('retries after a 503 and ingests the release once the forge answers', async () => {
    const plugin = await w.plugin('github');
    const [manifest, binary] = w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0'));
    const served = flakyBinary(new URL(binary.url).pathname, 1);
    await w.deliver('github', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', [manifest, binary])).expect(202);

    const delivery = await settle(plugin.slug);
    expect(delivery).toMatchObject({ status: 'succeeded', version: '1.0.0', attempts: 2 });
    expect(served()).toBe(2);
    expect(await w.count('release', plugin.slug)).toBe(2);
  });

  it('fails the delivery after the last attempt, with the reason, audited', async () => {
    const plugin = await w.plugin('gitlab');
    const [manifest, binary] = w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0'));
    const served = flakyBinary(new URL(binary.url).pathname, 99);
    await w.deliver('gitlab', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', [manifest, binary])).expect(202);

    const delivery = await settle(plugin.slug);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
    expect(delivery.detail).toMatch(/gave up after 2 attempts/);
    expect(served()).toBe(2);
    expect(await w.count('release', plugin.slug)).toBe(1);
    const audits = await w.query(`SELECT action FROM audit_entry WHERE action = 'webhook.delivery_failed' AND slug = $1`, [plugin.slug]);
    expect(audits).toHaveLength(1);
  });

  it('does not retry a validation failure', async () => {
    const plugin = await w.plugin('gitea');
    const assets = w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0', { license: 42 }));
    await w.deliver('gitea', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', assets)).expect(202);
    expect(await settle(plugin.slug)).toMatchObject({ status: 'failed', reason: 'manifest-invalid', attempts: 1 });
  });

  it('renews the claim of a slow attempt past its lease, so no second attempt starts meanwhile', async () => {
    const plugin = await w.plugin('github');
    const [manifest] = w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0'));
    const binary = w.forge.held(`/downloads/${plugin.repo}/v1.0.0/slow.tar.gz`);
    await w
      .deliver('github', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', [manifest, { name: 'slow.tar.gz', url: binary.url }]))
      .expect(202);
    const lease = () =>
      w.query<{ status: string; lockedUntil: Date }>(
        `SELECT d.status, d.locked_until AS "lockedUntil" FROM webhook_delivery d JOIN plugin p ON p.id = d.plugin_id WHERE p.slug = $1`,
        [plugin.slug],
      );

    const attempt = w.runWorker();
    await binary.requested;
    const [claimed] = await lease();
    // Past the first claim's end by the clock: only heartbeats keep the delivery claimed now.
    while (Date.now() < new Date(claimed.lockedUntil).getTime() + 500) await new Promise((resolve) => setTimeout(resolve, 100));
    const [renewed] = await lease();
    expect(renewed.status).toBe('processing');
    expect(new Date(renewed.lockedUntil).getTime()).toBeGreaterThan(Date.now());
    expect(await w.runWorker()).toBe(0);

    binary.release();
    expect(await attempt).toBe(1);
    expect((await deliveries(plugin.slug))[0]).toMatchObject({ status: 'succeeded', version: '1.0.0', attempts: 1 });
  });

  (process.env.DATABASE_URL ? it : it.skip)('keeps its jobs in pg-boss on PostgreSQL', async () => {
    const [row] = await w.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery'`);
    expect(row.n).toBeGreaterThan(0);
  });
});
