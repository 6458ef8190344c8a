/**
 * Network trouble during a delivery's ingest is retried with backoff (never a validation
 * failure); a forge that recovers gets its release ingested once, one that does not fails the
 * delivery after the last attempt, audited. On PostgreSQL the jobs are pg-boss's.
 */
import { WebhookWorld } from '../support/webhook-world';

describe('webhook delivery retries', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    // No backoff and two attempts, so a test sees the retry without waiting minutes.
    w = await WebhookWorld.open({}, { backoffBaseMs: 0, maxAttempts: 2 });
  });
  afterAll(() => w?.close());

  const deliveries = async (slug: string) => (await w.as(w.owner.jwt, 'get', `/api/plugins/${slug}/deliveries`).expect(200)).body.deliveries;

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

  (process.env.DATABASE_URL ? it : it.skip)('keeps its jobs in pg-boss on PostgreSQL', async () => {
    const [row] = await w.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery'`);
    expect(row.n).toBeGreaterThan(0);
  });
});
