/**
 * A write whose database connection dies in the middle of its transaction: a request answers 503
 * problem+json with Retry-After (never 500), nothing of the transaction is left behind, and the
 * same write retried (or the background work taken up again) ends with exactly one result.
 *
 * The kill is deterministic: a connection of the test's own holds a lock the write needs late in
 * its transaction, after its first write, so the write blocks with uncommitted changes. The test
 * finds that backend (the app's, waiting on the test's lock, with a transaction id: it has written),
 * terminates it, and checks what is committed while it still holds the lock, so a background
 * worker that retries at once cannot commit past it before the check. Then it lets go.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { PRIMARY_APPLICATION_NAME } from '../../src/database/data-source-options';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { verifyRelease } from '../../src/lib/integrity';
import { eventually } from '../support/eventually';
import { captureLog } from '../support/log-capture';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { RotationWorld } from '../support/rotation-world';
import { userWithSession } from '../support/sessions';
import { WebhookWorld } from '../support/webhook-world';

const describeWithPostgres = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL)
  console.info('interrupted-writes tests skipped: they need a PostgreSQL server (DATABASE_URL) to kill connections on');

/**
 * Written outside the interrupted transaction on purpose, so left out of the comparison: a token's
 * use is recorded as it authenticates, and the plugin pages' store is rebuilt in the background
 * from its queue of changes whenever it gets to them.
 */
const WRITTEN_BY_OTHERS = ['publisher_token', 'plugin_page', 'plugin_page_change'];

/** A connection of the test's own: its application_name keeps it out of the search for the app's blocked writer. */
async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'interrupted-writes-test' });
  await client.connect();
  return client;
}

async function rows<T = Record<string, unknown>>(client: Client, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query(sql, params)).rows as T[];
}

async function count(client: Client, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await rows<{ n: string }>(client, `SELECT count(*) AS n FROM (${sql}) counted`, params))[0]!.n);
}

/**
 * Every public table's content, hashed: a transaction that left anything behind (a row inserted,
 * updated or deleted) changes its table's digest, and the diff names the table.
 */
async function digests(client: Client, except: readonly string[] = WRITTEN_BY_OTHERS): Promise<Record<string, string>> {
  const tables = await rows<{ name: string }>(
    client,
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND NOT (tablename = ANY ($1::text[])) ORDER BY 1`,
    [[...except]],
  );
  const perTable = tables.map(
    ({ name }) => `SELECT '${name}' AS name, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM "${name}" t`,
  );
  const found = await rows<{ name: string; digest: string }>(client, perTable.join(' UNION ALL '));
  return Object.fromEntries(found.map((row) => [row.name, row.digest]));
}

interface HeldLock {
  pid: number;
  release(): Promise<void>;
}

/** `statement` (a LOCK TABLE) taken in a transaction of its own, held until `release`. */
async function holdLock(url: string, statement: string): Promise<HeldLock> {
  const holder = await connect(url);
  await holder.query('BEGIN');
  await holder.query(statement);
  const pid = (await rows<{ pid: number }>(holder, 'SELECT pg_backend_pid() AS pid'))[0]!.pid;
  return {
    pid,
    async release() {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    },
  };
}

interface Victim {
  pid: number;
  /** The statement it was blocked in. */
  query: string;
}

/**
 * Waits for the app's backend blocked on `lock` with uncommitted writes of its own (a transaction
 * id is assigned at a transaction's first write), and terminates it. Others blocked on the lock
 * without having written (a worker's claim, a heartbeat) are not the write under test.
 */
async function killBlockedWriter(client: Client, lock: HeldLock): Promise<Victim> {
  const victim = await eventually(
    async () => {
      const waiting = await rows<Victim>(
        client,
        `SELECT pid, query FROM pg_stat_activity
          WHERE application_name = $1 AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL AND $2 = ANY (pg_blocking_pids(pid))`,
        [PRIMARY_APPLICATION_NAME, lock.pid],
      );
      if (waiting.length > 1) throw new Error(`more than one writer is blocked mid-transaction: ${JSON.stringify(waiting)}`);
      return waiting[0] ?? null;
    },
    'the write to block on the lock with uncommitted changes',
    20_000,
  );
  const [terminated] = await rows<{ done: boolean }>(client, 'SELECT pg_terminate_backend($1, 5000) AS done', [victim.pid]);
  expect(terminated!.done).toBe(true);
  return victim;
}

/**
 * Starts `write` with `lockStatement` held, kills the write's connection once it blocks there
 * mid-transaction, runs `whileHeld` (nothing can commit past the lock meanwhile), then lets go.
 * Answers the killed backend and the write's own outcome.
 */
async function interrupt<T>(
  url: string,
  client: Client,
  lockStatement: string,
  write: () => PromiseLike<T> | T,
  whileHeld: () => Promise<void> = () => Promise.resolve(),
): Promise<{ victim: Victim; outcome: Promise<T> }> {
  const lock = await holdLock(url, lockStatement);
  try {
    const outcome = Promise.resolve(write());
    // Awaited by the caller; not an unhandled rejection if the kill fails first.
    outcome.catch(() => undefined);
    const victim = await killBlockedWriter(client, lock);
    await whileHeld();
    return { victim, outcome };
  } finally {
    await lock.release();
  }
}

/** The answer a write gets when its database went away under it; anything else fails with what the server logged. */
function expectDatabaseUnavailable(res: request.Response, logged: readonly string[]): void {
  const body = res.body as { type?: string; status?: number };
  if (res.status !== 503)
    throw new Error(
      `expected 503 database-unavailable, got ${res.status} ${JSON.stringify(body)}; the server logged:\n${logged.join('\n')}`,
    );
  expect({ retryAfter: res.headers['retry-after'], type: body.type, status: body.status }).toEqual({
    retryAfter: expect.stringMatching(/^\d+$/),
    type: expect.stringMatching(/\/problems\/database-unavailable$/),
    status: 503,
  });
}

/** Waits up to `timeoutMs` for background work to get `done`; the assertions after it say where it got instead. */
async function waitFor(done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A subscriber's endpoint on loopback: keeps every request; `beforeAnswer` may hold one before its 200. */
class Receiver {
  readonly received: { path: string; webhookId: string; event: { type: string; data: Record<string, unknown> } }[] = [];
  beforeAnswer: (path: string) => Promise<void> = () => Promise.resolve();
  url = '';
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.received.push({ path, webhookId: String(req.headers['webhook-id']), event: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      void this.beforeAnswer(path).finally(() => res.writeHead(200).end('ok'));
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  at(path: string) {
    return this.received.filter((hook) => hook.path === path);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describeWithPostgres('a write whose database connection is killed mid-transaction', () => {
  describe('answered over HTTP, and the subscriptions it raises', () => {
    const log = captureLog();
    let w: PublishWorld;
    let url: string;
    let sql: Client;
    let receiver: Receiver;
    let token: string;
    let adminJwt: string;
    let subscriberJwt: string;

    /** Lines the server logged at warn or above since `from`, for the failure message. */
    const loggedSince = (from: number) => log.lines.slice(from);
    const pushBody = (slug: string, version: string) => ({
      manifest: manifestYaml({ name: slug, version, description: 'Published around a killed connection' }),
      manifestSource: 'plugin.yaml',
      version: `v${version}`,
      assets: [
        {
          name: `${slug}.zip`,
          url: w.forge.asset(`/acme/${slug}/releases/download/v${version}/${slug}.zip`, { size: 2_000, seed: version.length }),
        },
      ],
      repoUrl: `${w.forge.url}/acme/${slug}`,
    });
    const releasesOf = (slug: string) =>
      rows(sql, 'SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 ORDER BY r.version', [slug]);
    const audits = (action: string, slug: string | null, version?: string) =>
      count(
        sql,
        "SELECT 1 FROM audit_entry WHERE action = $1 AND slug IS NOT DISTINCT FROM $2 AND ($3::text IS NULL OR details->>'version' = $3)",
        [action, slug, version ?? null],
      );
    const subscribe = async (slug: string, path: string) => {
      const res = await request(w.app.url)
        .post('/api/account/subscriptions')
        .set('Authorization', `Bearer ${subscriberJwt}`)
        .send({ url: `${receiver.url}${path}`, events: ['release.published'], scope: 'plugin', target: slug })
        .expect(201);
      return res.body.subscription.id as string;
    };
    const deliveriesOf = (subscriptionId: string) =>
      rows<{ status: string; attempts: number; version: string }>(
        sql,
        `SELECT d.status, d.attempts, e.details->>'version' AS version FROM subscription_delivery d JOIN subscription_event e ON e.id = d.event_id
          WHERE d.subscription_id = $1 ORDER BY d.created_at`,
        [subscriptionId],
      );

    beforeAll(async () => {
      receiver = await new Receiver().start();
      // A short lease, so a subscription delivery whose outcome was lost is taken up again in seconds.
      w = await publishWorld(
        { WEBHOOK_LEASE_MS: '2000', SUBSCRIPTION_ALLOW_HOSTS: receiver.host, RESPONSE_CACHE_TTL_S: '0' },
        {},
        createLogger('warn', log.stream),
      );
      url = w.app.config.databaseUrl!;
      sql = await connect(url);
      token = (await w.tokenFor('mid-publisher', ['publish:*', 'yank:*'])).token;
      adminJwt = (await userWithSession(w.app, 'mid-admin', 'admin')).jwt;
      subscriberJwt = (await userWithSession(w.app, 'mid-subscriber')).jwt;
    });

    afterAll(async () => {
      await sql?.end();
      await w?.close();
      await receiver?.stop();
    });

    it('publish by CI push: 503, no plugin, release, audit or log entry left, and the retry publishes once', async () => {
      const body = pushBody('mid-publish', '1.0.0');
      const before = await digests(sql);
      const from = log.lines.length;
      // The log append is the transaction's last write: by then the claim, the release, its
      // listing and both audit entries are written, uncommitted.
      const { victim, outcome } = await interrupt(url, sql, 'LOCK TABLE transparency_leaf IN EXCLUSIVE MODE', () =>
        w.push(token, 'mid-publish', body),
      );
      expect(victim.query).toMatch(/INSERT INTO "transparency_leaf"/);
      expectDatabaseUnavailable(await outcome, loggedSince(from));
      expect(await digests(sql)).toEqual(before);

      const retried = await w.push(token, 'mid-publish', body);
      expect({ status: retried.status, body: retried.body }).toMatchObject({
        status: 201,
        body: { slug: 'mid-publish', version: '1.0.0', claimed: true },
      });
      expect(await releasesOf('mid-publish')).toEqual([{ version: '1.0.0' }]);
      expect(await audits('plugin.claim', 'mid-publish')).toBe(1);
      expect(await audits('plugin.publish', 'mid-publish', '1.0.0')).toBe(1);
      expect(
        await count(
          sql,
          "SELECT 1 FROM transparency_leaf l JOIN release r ON r.id = l.release_id JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'mid-publish'",
        ),
      ).toBe(1);
    });

    it('yank: 503, the release not yanked and nothing audited or logged, and the retry yanks once', async () => {
      await w.push(token, 'mid-yank', pushBody('mid-yank', '1.0.0')).expect(201);
      const yank = () =>
        request(w.app.url)
          .post('/api/publish/mid-yank/yank')
          .set('Authorization', `Bearer ${token}`)
          .send({ version: '1.0.0', reason: 'broken build' });
      const before = await digests(sql);
      const leaves = await count(sql, 'SELECT 1 FROM transparency_leaf');
      const from = log.lines.length;
      // Audited after the release is marked yanked and the plugin's listing recomputed.
      const { victim, outcome } = await interrupt(url, sql, 'LOCK TABLE audit_entry IN EXCLUSIVE MODE', yank);
      expect(victim.query).toMatch(/INSERT INTO "audit_entry"/);
      expectDatabaseUnavailable(await outcome, loggedSince(from));
      expect(await digests(sql)).toEqual(before);

      const retried = await yank();
      expect({ status: retried.status, body: retried.body }).toEqual({
        status: 200,
        body: { slug: 'mid-yank', version: '1.0.0', yanked: true },
      });
      expect(
        await rows(
          sql,
          "SELECT r.yanked_at IS NOT NULL AS yanked, r.yank_reason AS reason FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'mid-yank'",
        ),
      ).toEqual([{ yanked: true, reason: 'broken build' }]);
      expect(await audits('plugin.yank', 'mid-yank', '1.0.0')).toBe(1);
      expect(await count(sql, 'SELECT 1 FROM transparency_leaf')).toBe(leaves + 1);
    });

    it('signing-key rotation: 503, the key set as it was, and the retry rotates once', async () => {
      const rotate = () => request(w.app.url).post('/api/admin/keys/rotate').set('Authorization', `Bearer ${adminJwt}`);
      const keysBefore = await rows<{ kid: string; state: string }>(sql, 'SELECT kid, state FROM signing_key ORDER BY created_at');
      expect(keysBefore).toEqual([{ kid: expect.any(String), state: 'current' }]);
      const before = await digests(sql);
      const leaves = await count(sql, 'SELECT 1 FROM transparency_leaf');
      const from = log.lines.length;
      // Audited after the current key is demoted and the new one inserted.
      const { victim, outcome } = await interrupt(url, sql, 'LOCK TABLE audit_entry IN EXCLUSIVE MODE', rotate);
      expect(victim.query).toMatch(/INSERT INTO "audit_entry"/);
      expectDatabaseUnavailable(await outcome, loggedSince(from));
      expect(await digests(sql)).toEqual(before);

      const retried = await rotate();
      expect({ status: retried.status, body: retried.body }).toMatchObject({
        status: 200,
        body: { previousKid: keysBefore[0]!.kid, drainingKid: null, pending: 0 },
      });
      expect(await rows(sql, 'SELECT kid, state FROM signing_key ORDER BY created_at')).toEqual([
        { kid: keysBefore[0]!.kid, state: 'previous' },
        { kid: retried.body.kid, state: 'current' },
      ]);
      expect(await audits('key.rotate', null)).toBe(1);
      expect(await count(sql, 'SELECT 1 FROM transparency_leaf')).toBe(leaves + 1);
    });

    it('subscription fan-out: killed as the commit queues the deliveries, 503 and no event; the retry is delivered once', async () => {
      await w.push(token, 'mid-fan-out', pushBody('mid-fan-out', '1.0.0')).expect(201);
      const subscription = await subscribe('mid-fan-out', '/fan-out');
      const body = pushBody('mid-fan-out', '1.1.0');
      const before = await digests(sql);
      const from = log.lines.length;
      // The fan-out is a deferred trigger on audit_entry: it runs in the COMMIT, after every other
      // write of the publish, and stores the event before it queues the deliveries.
      const { victim, outcome } = await interrupt(url, sql, 'LOCK TABLE subscription_delivery IN EXCLUSIVE MODE', () =>
        w.push(token, 'mid-fan-out', body),
      );
      expect(victim.query).toMatch(/^COMMIT/i);
      expectDatabaseUnavailable(await outcome, loggedSince(from));
      expect(await digests(sql)).toEqual(before);

      await w.push(token, 'mid-fan-out', body).expect(201);
      await waitFor(async () => (await deliveriesOf(subscription)).some((d) => d.status === 'succeeded'));
      expect(await deliveriesOf(subscription)).toEqual([{ status: 'succeeded', attempts: 1, version: '1.1.0' }]);
      expect(receiver.at('/fan-out').map((hook) => hook.event)).toEqual([
        expect.objectContaining({ type: 'release.published', data: expect.objectContaining({ slug: 'mid-fan-out', version: '1.1.0' }) }),
      ]);
      expect(await releasesOf('mid-fan-out')).toEqual([{ version: '1.0.0' }, { version: '1.1.0' }]);
    });

    it("subscription delivery's outcome (worker): nothing half-recorded, and the delivery ends succeeded once, under one webhook-id", async () => {
      await w.push(token, 'mid-outcome', pushBody('mid-outcome', '1.0.0')).expect(201);
      const subscription = await subscribe('mid-outcome', '/outcome');
      let lock: HeldLock | undefined;
      let before: Record<string, string> = {};
      // Taken once the worker has claimed the delivery and sent it: the outcome's transaction then
      // marks the delivery succeeded and blocks freeing the subscription's in-flight lease.
      const sent = new Promise<void>((resolve, reject) => {
        receiver.beforeAnswer = async (path) => {
          if (path !== '/outcome' || lock) return;
          try {
            lock = await holdLock(url, 'LOCK TABLE subscription IN SHARE MODE');
            before = await digests(sql);
            resolve();
          } catch (error) {
            reject(error);
          }
        };
      });
      await w.push(token, 'mid-outcome', pushBody('mid-outcome', '1.1.0')).expect(201);
      await sent;
      try {
        const victim = await killBlockedWriter(sql, lock!);
        expect(victim.query).toMatch(/UPDATE subscription SET in_flight_until = NULL/);
        expect(await digests(sql)).toEqual(before);
        expect(await deliveriesOf(subscription)).toEqual([{ status: 'processing', attempts: 1, version: '1.1.0' }]);
      } finally {
        await lock?.release();
        receiver.beforeAnswer = () => Promise.resolve();
      }

      await waitFor(async () => (await deliveriesOf(subscription)).some((d) => d.status === 'succeeded'));
      expect(await deliveriesOf(subscription)).toEqual([{ status: 'succeeded', attempts: 2, version: '1.1.0' }]);
      expect(await rows(sql, 'SELECT in_flight_until FROM subscription WHERE id = $1', [subscription])).toEqual([
        { in_flight_until: null },
      ]);
      // Sent again once the lost attempt's lease lapsed (delivery is at least once): under the
      // same webhook-id, so a receiver that remembers ids handles the event once.
      const hooks = receiver.at('/outcome');
      expect(hooks.map((hook) => hook.event.data.version)).toEqual(['1.1.0', '1.1.0']);
      expect(new Set(hooks.map((hook) => hook.webhookId)).size).toBe(1);
    });
  });

  describe('webhook ingest by the background worker', () => {
    let w: WebhookWorld;
    let url: string;
    let sql: Client;

    beforeAll(async () => {
      // The worker on its own, polling often, retrying at once, with a short lease.
      w = await WebhookWorld.open({}, { autoStart: true, pollIntervalMs: 200, backoffBaseMs: 0, leaseMs: 2_000 });
      url = w.app.config.databaseUrl!;
      sql = await connect(url);
    });

    afterAll(async () => {
      await sql?.end();
      await w?.close();
    });

    it('leaves no release, audit or log entry behind, and the delivery ends succeeded with one release', async () => {
      const plugin = await w.plugin('github');
      const event = w.releaseEvent(plugin, 'v1.0.0', w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0')));
      const deliveryOf = () =>
        rows<{ status: string; attempts: number; version: string | null }>(
          sql,
          "SELECT status, attempts, version, reason FROM webhook_delivery WHERE tag = 'v1.0.0'",
        );
      // The delivery row is the worker's queue: stored, claimed and sent back by design outside the ingest's transaction.
      const except = [...WRITTEN_BY_OTHERS, 'webhook_delivery'];
      const before = await digests(sql, except);
      // Audited after the release row, its README and the plugin's listing are written.
      const { victim, outcome } = await interrupt(
        url,
        sql,
        'LOCK TABLE audit_entry IN EXCLUSIVE MODE',
        () => w.deliver('github', plugin.secret, event),
        async () => {
          expect(await digests(sql, except)).toEqual(before);
          expect((await deliveryOf())[0]?.status).not.toBe('succeeded');
        },
      );
      expect(victim.query).toMatch(/INSERT INTO "audit_entry"/);
      expect((await outcome).status).toBe(202);

      await waitFor(async () => (await deliveryOf())[0]?.status === 'succeeded');
      expect(await deliveryOf()).toEqual([{ status: 'succeeded', attempts: 2, version: '1.0.0', reason: null }]);
      expect(
        (
          await w.query<{ version: string }>(
            'SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 ORDER BY r.version',
            [plugin.slug],
          )
        ).map((r) => r.version),
      ).toEqual(['0.1.0', '1.0.0']);
      expect(
        await count(sql, "SELECT 1 FROM audit_entry WHERE action = 'plugin.publish' AND slug = $1 AND details->>'version' = '1.0.0'", [
          plugin.slug,
        ]),
      ).toBe(1);
      expect(await count(sql, "SELECT 1 FROM transparency_leaf l JOIN release r ON r.id = l.release_id WHERE r.version = '1.0.0'")).toBe(1);
    });
  });

  describe('re-signing by the background worker', () => {
    let world: RotationWorld;
    let url: string;
    let sql: Client;

    beforeAll(async () => {
      // A failed pass is retried at the next interval: a short one keeps the test short.
      world = await RotationWorld.open({ intervalMs: 200, retireGraceMs: 0 });
      url = world.app.config.databaseUrl!;
      sql = await connect(url);
    });

    afterAll(async () => {
      await sql?.end();
      await world?.close();
    });

    it('leaves every release signed as it was, then re-signs each exactly once and retires the key', async () => {
      const worker = world.app.app.get(ReleaseResignWorker);
      // Held still while the drain is set up: the rotation that starts it appends to the log too.
      await worker.stop();
      for (const slug of ['resign-a', 'resign-b']) for (const version of ['1.0.0', '1.1.0']) await world.publish(slug, version);
      const [k1] = await world.servedKids();
      await world.admin('post', '/api/admin/keys/rotate').expect(200);
      const second = await world.admin('post', '/api/admin/keys/rotate').expect(200);
      expect(second.body).toMatchObject({ drainingKid: k1, pending: 4 });
      const k3 = second.body.kid as string;
      const before = await digests(sql);
      // The batch logs its new signatures last, after it rewrote the releases and counted them on the key.
      const { victim } = await interrupt(
        url,
        sql,
        'LOCK TABLE transparency_leaf IN EXCLUSIVE MODE',
        () => worker.start(),
        async () => expect(await digests(sql)).toEqual(before),
      );
      expect(victim.query).toMatch(/INSERT INTO "transparency_leaf"/);

      await waitFor(
        async () => (await rows<{ state: string }>(sql, 'SELECT state FROM signing_key WHERE kid = $1', [k1]))[0]?.state === 'retired',
      );
      expect(await rows(sql, 'SELECT state, resigned_count FROM signing_key WHERE kid = $1', [k1])).toEqual([
        { state: 'retired', resigned_count: 4 },
      ]);
      expect(await world.storedKids()).toEqual(Array(4).fill(k3));
      const keys = await world.keySet();
      const verdicts = await Promise.all(
        world.published.map(
          async (published) => (await verifyRelease({ release: await world.release(published), keys, expected: published })).ok,
        ),
      );
      expect(verdicts).toEqual([true, true, true, true]);
      expect(await rows(sql, "SELECT details->>'resigned' AS resigned FROM audit_entry WHERE action = 'key.resign'")).toEqual([
        { resigned: '4' },
      ]);
      // Each release: its publish entry and one resign entry.
      expect(await rows(sql, 'SELECT count(*)::int AS n FROM transparency_leaf WHERE release_id IS NOT NULL GROUP BY release_id')).toEqual(
        Array(4).fill({ n: 2 }),
      );
    });
  });
});
