/**
 * SIGKILL of the compiled server in the middle of a webhook delivery
 * (docs/operating.md#crashes-and-clients-that-go-away): the delivery's
 * asset is held by the fake forge, the server is killed while it waits for it, and a new server
 * on the same database takes the delivery up again as soon as its short lease (WEBHOOK_LEASE_MS)
 * lapses: one release, the delivery succeeded, both attempts counted.
 */
import { webhookHeaders } from '../support/fake-forge';
import { CrashWorld } from '../support/crash-world';
import { releaseEvent } from '../support/webhook-world';

interface Delivery {
  status: string;
  attempts: number;
  version: string | null;
}

describe('SIGKILL during a webhook delivery', () => {
  let w: CrashWorld;

  beforeAll(async () => {
    w = await CrashWorld.open({ WEBHOOK_LEASE_MS: '3000' });
  });
  afterAll(() => w?.close(), 60_000);

  it('is resumed by a restarted server once the lease lapses, and ingested exactly once', async () => {
    const first = await w.serve();
    const owner = await w.userFor(first.url, 'hook-crash-owner');
    const repoUrl = `${w.forge.url}/acme/crash-hook`;
    const asJson = (token: string, method: string, body?: unknown): RequestInit => ({
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const seed = w.forge.asset('/seed/crash-hook.zip', { size: 100 });
    const pushed = await fetch(
      `${first.url}/api/publish/crash-hook`,
      asJson(owner.token, 'POST', {
        manifest: 'name: crash-hook\nversion: "0.1.0"\n',
        manifestSource: 'plugin.yaml',
        version: '0.1.0',
        assets: [{ name: 'a.zip', url: seed }],
        repoUrl,
      }),
    );
    expect(pushed.status).toBe(201);
    const rotated = await fetch(`${first.url}/api/plugins/crash-hook/webhook-secret`, asJson(owner.jwt, 'POST', {}));
    const { webhookSecret } = (await rotated.json()) as { webhookSecret: string };

    w.forge.route('GET', '/downloads/crash-hook/v1.0.0/plugin.yaml', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/yaml' }).end('name: crash-hook\nversion: "1.0.0"\n');
    });
    const binary = w.forge.held('/downloads/crash-hook/v1.0.0/crash-hook.zip');
    const event = releaseEvent({ kind: 'github', repoUrl }, 'v1.0.0', [
      { name: 'plugin.yaml', url: `${w.forge.url}/downloads/crash-hook/v1.0.0/plugin.yaml` },
      { name: 'crash-hook.zip', url: binary.url },
    ]);
    const received = await fetch(`${first.url}/api/webhooks/release`, {
      method: 'POST',
      headers: webhookHeaders('github', webhookSecret, event.body, event.event),
      body: new Uint8Array(event.body),
    });
    expect(received.status).toBe(202);
    await binary.requested;
    await w.kill(first.server);
    binary.release();

    const second = await w.serve();
    const deliveries = async () => {
      const res = await fetch(`${second.url}/api/plugins/crash-hook/deliveries`, asJson(owner.jwt, 'GET'));
      return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
    };
    const deadline = Date.now() + 60_000;
    let seen = await deliveries();
    while (seen[0]?.status !== 'succeeded' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      seen = await deliveries();
    }
    expect(seen).toEqual([expect.objectContaining({ status: 'succeeded', version: '1.0.0', attempts: 2 })]);
    const releases = await w.query<{ version: string }>(
      `SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'crash-hook' ORDER BY r.version`,
    );
    expect(releases).toEqual([{ version: '0.1.0' }, { version: '1.0.0' }]);
  }, 180_000);
});
