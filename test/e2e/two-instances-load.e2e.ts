/**
 * A short mixed load on two compiled instances sharing Postgres and Redis
 * (docs/operating.md#scaling-out): catalogue reads on both, CI pushes of distinct versions through
 * both, and signed webhook deliveries through both. Asserts correctness only (no 5xx, every
 * accepted write has its release), never throughput: the box is shared. Prints the request counts
 * by kind and status for the record.
 */
import { webhookHeaders } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { type HttpAnswer, TWO_INSTANCES_SKIP_REASON, TwoInstances } from '../support/two-instances';
import { releaseEvent } from '../support/webhook-world';

const LOAD_MS = 20_000;
const READERS = 4;
const DELIVERY_PAUSE_MS = 300;

type Kind = 'read' | 'publish' | 'webhook';

class Tally {
  readonly byKind: Record<Kind, Map<number, number>> = { read: new Map(), publish: new Map(), webhook: new Map() };

  add(kind: Kind, status: number): void {
    this.byKind[kind].set(status, (this.byKind[kind].get(status) ?? 0) + 1);
  }

  failures(): number {
    let n = 0;
    for (const counts of Object.values(this.byKind)) for (const [status, count] of counts) if (status === 0 || status >= 500) n += count;
    return n;
  }

  summary(): string {
    const lines = Object.entries(this.byKind).map(([kind, counts]) => {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return `${kind}: ${total} (${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}×${c}`)
        .join(', ')})`;
    });
    return `two-instance load, ${LOAD_MS / 1000} s: ${lines.join('; ')}`;
  }
}

/** Status 0 stands for a request that got no answer at all. */
async function tallied(tally: Tally, kind: Kind, send: () => Promise<HttpAnswer>): Promise<HttpAnswer | null> {
  try {
    const answer = await send();
    tally.add(kind, answer.status);
    return answer;
  } catch {
    tally.add(kind, 0);
    return null;
  }
}

if (TWO_INSTANCES_SKIP_REASON) {
  it.skip(`two-instance load: skipped, ${TWO_INSTANCES_SKIP_REASON}`, () => undefined);
} else {
  describe('mixed load on two compiled instances', () => {
    let w: TwoInstances;

    beforeAll(async () => {
      w = await TwoInstances.start();
    }, 120_000);

    afterAll(async () => {
      await w?.stop();
    }, 60_000);

    it('answers no 5xx, and every accepted push and delivery has its release', async () => {
      const admin = (await w.session(true)).jwt;
      // Before B's first request, so it loads these limits and the load is never refused.
      await w.setSettings(admin, {
        'ratelimit.public_read_per_min': 1_000_000,
        'ratelimit.publish_per_min': 1_000_000,
        'ratelimit.webhook_per_min': 1_000_000,
      });
      const owner = await w.session();
      const token = (await w.publisherToken(owner.jwt)).token;
      for (const slug of ['load-pushed', 'load-hooked']) expect((await w.push(0, token, slug, '0.0.1')).status).toBe(201);
      const secret = (await w.call(0, 'POST', '/api/plugins/load-hooked/webhook-secret', { jwt: owner.jwt, body: {} })).body
        .webhookSecret as string;
      const hooked = { kind: 'github' as const, repoUrl: `${w.forge.url}/acme/load-hooked` };
      w.forge.route('GET', '/dl/:tag/plugin.yaml', (_req, res, params) => {
        res.writeHead(200, { 'Content-Type': 'text/yaml' }).end(manifestYaml({ name: 'load-hooked', version: params.tag.slice(1) }));
      });
      w.forge.route('GET', '/dl/:tag/load-hooked.tar.gz', (_req, res, params) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.from(`binary of ${params.tag}`));
      });

      const tally = new Tally();
      const pushed: string[] = [];
      const delivered: string[] = [];
      const until = Date.now() + LOAD_MS;
      let pushes = 0;
      let deliveries = 0;
      const readPaths = [
        '/api/plugins',
        '/api/plugins/load-pushed',
        '/api/plugins/load-pushed/latest',
        '/api/plugins/load-hooked',
        '/api/stats',
      ];

      const reader = async (id: number) => {
        for (let i = 0; Date.now() < until; i += 1)
          await tallied(tally, 'read', () => w.call((id + i) % 2, 'GET', readPaths[i % readPaths.length]));
      };
      const publisher = async (via: number) => {
        while (Date.now() < until) {
          const version = `1.${(pushes += 1)}.0`;
          const answer = await tallied(tally, 'publish', () => w.push(via, token, 'load-pushed', version));
          if (answer && answer.status >= 200 && answer.status < 300) pushed.push(version);
        }
      };
      const deliverer = async () => {
        while (Date.now() < until) {
          const tag = `v2.${(deliveries += 1)}.0`;
          const event = releaseEvent(hooked, tag, [
            { name: 'plugin.yaml', url: `${w.forge.url}/dl/${tag}/plugin.yaml` },
            { name: 'load-hooked.tar.gz', url: `${w.forge.url}/dl/${tag}/load-hooked.tar.gz` },
          ]);
          const headers = webhookHeaders('github', secret, event.body, event.event);
          const answer = await tallied(tally, 'webhook', async () => {
            const res = await fetch(`${w.urls[deliveries % 2]}/api/webhooks/release`, {
              method: 'POST',
              headers,
              body: new Uint8Array(event.body),
              signal: AbortSignal.timeout(30_000),
            });
            await res.arrayBuffer();
            return { status: res.status, headers: res.headers, body: null };
          });
          if (answer && answer.status >= 200 && answer.status < 300) delivered.push(tag.slice(1));
          await new Promise((resolve) => setTimeout(resolve, DELIVERY_PAUSE_MS));
        }
      };
      await Promise.all([...Array.from({ length: READERS }, (_, id) => reader(id)), publisher(0), publisher(1), deliverer()]);
      console.log(tally.summary());

      expect(tally.failures()).toBe(0);
      expect(pushed.length).toBeGreaterThan(0);
      expect(delivered.length).toBeGreaterThan(0);
      // Deliveries are ingested by the instances' background workers: wait for the queue to drain.
      const versionsOf = async (slug: string) =>
        new Set(
          (
            await w.sql<{ version: string }>('SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1', [
              slug,
            ])
          ).map((r) => r.version),
        );
      const deadline = Date.now() + 60_000;
      let hookedVersions = await versionsOf('load-hooked');
      while (delivered.some((v) => !hookedVersions.has(v)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        hookedVersions = await versionsOf('load-hooked');
      }
      expect(delivered.filter((v) => !hookedVersions.has(v))).toEqual([]);
      const pushedVersions = await versionsOf('load-pushed');
      expect(pushed.filter((v) => !pushedVersions.has(v))).toEqual([]);
      // And the API, through either instance, answers each of them.
      const all = [...pushed.map((v) => ['load-pushed', v]), ...delivered.map((v) => ['load-hooked', v])];
      const answers = await Promise.all(all.map(([slug, v], i) => w.call(i % 2, 'GET', `/api/plugins/${slug}/releases/${v}`)));
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    }, 150_000);
  });
}
