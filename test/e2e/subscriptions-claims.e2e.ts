/**
 * Outbound webhooks' delivery worker, revised again (docs/subscriptions.md): deliveries of a
 * disabled subscription or user are parked and queued again on enable; a subscription's in-flight
 * lease belongs to the claim that set it; runOnce lets the attempts under way finish when a claim
 * fails. Receivers are real servers on loopback; the worker is driven by hand.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AuditService } from '../../src/platform/audit/audit.service';
import { SystemClock } from '../../src/common/clock';
import { SubscriptionDeliveriesRepository } from '../../src/news/subscriptions/subscription-deliveries.repository';
import {
  DEFAULT_SUBSCRIPTION_WORKER_OPTIONS,
  SUBSCRIPTION_WORKER_OPTIONS,
  SubscriptionWorker,
} from '../../src/news/subscriptions/subscription-worker';
import { SubscriptionsRepository } from '../../src/news/subscriptions/subscriptions.repository';
import { WebhookSender } from '../../src/news/subscriptions/webhook-sender';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { startRegistry } from '../support/rotation-world';
import { userWithSession } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

/** A receiver that holds every request open until `release(status)`. */
class Tarpit {
  private readonly held: ServerResponse[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => this.held.push(res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  get open(): number {
    return this.held.length;
  }

  release(status = 200): void {
    for (const res of this.held.splice(0)) res.writeHead(status).end('late');
  }

  async stop(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Waits for a condition the test cannot be told of directly (a request reaching another server); no time is asserted. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('outbound webhook claims: parking, lease owners, a failed claim', () => {
  let db: TestDatabase;
  let forge: FakeForge;
  let receiver: WebhookReceiver;
  let tarpit: Tarpit;
  let app: TestApp;
  let alice: { jwt: string; userId: string };
  let bob: { jwt: string; userId: string };
  let admin: { jwt: string };
  const clock = new SystemClock();

  const worker = () =>
    new SubscriptionWorker(
      { ...DEFAULT_SUBSCRIPTION_WORKER_OPTIONS, autoStart: false },
      app.config,
      app.app.get(SubscriptionDeliveriesRepository),
      app.app.get(SubscriptionsRepository),
      app.app.get(WebhookSender),
      app.app.get(AuditService),
      clock,
    );
  const as = (jwt: string) => ({
    get: (path: string) => request(app.url).get(path).set('Authorization', `Bearer ${jwt}`),
    post: (path: string, body?: object) => request(app.url).post(path).set('Authorization', `Bearer ${jwt}`).send(body),
    patch: (path: string, body: object) => request(app.url).patch(path).set('Authorization', `Bearer ${jwt}`).send(body),
  });
  const query = (sql: string, params: unknown[] = []) => app.database.dataSource.query(sql, params);
  const subscribe = async (jwt: string, url: string) => {
    const res = await as(jwt)
      .post('/api/account/subscriptions', {
        url,
        events: ['plugin.deprecated', 'plugin.undeprecated'],
        scope: 'plugin',
        target: 'hook-claims',
      })
      .expect(201);
    return res.body.subscription.id as string;
  };
  const event = (action: 'plugin.deprecate' | 'plugin.undeprecate' = 'plugin.deprecate') =>
    query(`INSERT INTO audit_entry (action, slug, details) VALUES ($1, 'hook-claims', '{"message": "m"}')`, [action]);
  const statuses = async (subscriptionId: string) =>
    (await query(`SELECT status FROM subscription_delivery WHERE subscription_id = $1 ORDER BY created_at, id`, [subscriptionId])).map(
      (row: { status: string }) => row.status,
    );
  const lease = async (subscriptionId: string) =>
    (await query(`SELECT in_flight_until, in_flight_delivery_id, in_flight_attempts FROM subscription WHERE id = $1`, [subscriptionId]))[0];

  beforeAll(async () => {
    db = await createTestDatabase();
    forge = await new FakeForge().start();
    receiver = await new WebhookReceiver().start();
    tarpit = await new Tarpit().start();
    const env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FETCH_ALLOW_HOSTS: new URL(forge.url).host,
      SUBSCRIPTION_ALLOW_HOSTS: `${receiver.host},${tarpit.host}`,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
    };
    app = await startRegistry(db, env, {}, [
      { provide: SUBSCRIPTION_WORKER_OPTIONS, useValue: { ...DEFAULT_SUBSCRIPTION_WORKER_OPTIONS, autoStart: false } },
    ]);
    const a = await userWithSession(app, 'alice-claims');
    alice = { jwt: a.jwt, userId: a.user.id };
    const b = await userWithSession(app, 'bob-claims');
    bob = { jwt: b.jwt, userId: b.user.id };
    admin = { jwt: (await userWithSession(app, 'root-claims', 'admin')).jwt };
    const token = (
      await as(alice.jwt)
        .post('/api/auth/me/tokens', { name: 'ci', scopes: ['publish:*'] })
        .expect(201)
    ).body.token;
    const asset = forge.asset('/acme/hook-claims/releases/download/v1.0.0/hook-claims.zip', { size: 500, seed: 2 });
    await request(app.url)
      .post('/api/publish/hook-claims')
      .set('Authorization', `Bearer ${token}`)
      .send({
        manifest: manifestYaml({ name: 'hook-claims', version: '1.0.0', description: 'Tells subscribers', tags: ['test'] }),
        manifestSource: 'plugin.yaml',
        version: 'v1.0.0',
        assets: [{ name: 'hook-claims.zip', url: asset }],
        repoUrl: `${forge.url}/acme/hook-claims`,
      })
      .expect(201);
  });
  afterEach(async () => {
    tarpit.release();
    await query(`DELETE FROM subscription`);
  });
  afterAll(async () => {
    await app?.close();
    await tarpit?.stop();
    await receiver?.stop();
    await forge?.stop();
    await db?.drop();
  });

  it('parks the queued deliveries of a disabled subscription, shows them queued, and queues them again on enable', async () => {
    const subscription = await subscribe(alice.jwt, `${receiver.url}/parked`);
    await event('plugin.deprecate');
    await event('plugin.undeprecate');
    await query(`UPDATE subscription SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [subscription]);
    expect(await statuses(subscription)).toEqual(['parked', 'parked']);
    const logged = (await as(alice.jwt).get(`/api/account/subscriptions/${subscription}/deliveries`).expect(200)).body.deliveries;
    expect(logged.map((d: { status: string }) => d.status)).toEqual(['queued', 'queued']);
    expect(await worker().runOnce()).toBe(0);

    await as(alice.jwt).post(`/api/account/subscriptions/${subscription}/enable`).expect(200);
    expect(await statuses(subscription)).toEqual(['queued', 'queued']);
    expect(await worker().runOnce()).toBe(2);
    expect(await statuses(subscription)).toEqual(['succeeded', 'succeeded']);
    expect(receiver.received.filter((h) => h.path === '/parked')).toHaveLength(2);
  });

  it("parks a disabled user's deliveries, a retry and a replay among them, until both user and subscription are enabled", async () => {
    const subscription = await subscribe(bob.jwt, `${tarpit.url}/bob`);
    await event('plugin.deprecate');
    // An attempt under way when its owner is disabled: its retry is parked, not queued.
    const running = worker().runOnce();
    await until(() => tarpit.open === 1);
    await as(admin.jwt).patch(`/api/admin/users/${bob.userId}`, { disabled: true }).expect(200);
    await event('plugin.undeprecate');
    tarpit.release(500);
    expect(await running).toBe(1);
    expect(await statuses(subscription)).toEqual(['parked']);

    // The user enabled while the subscription is disabled: still parked.
    await query(`UPDATE subscription SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [subscription]);
    await as(admin.jwt).patch(`/api/admin/users/${bob.userId}`, { disabled: false }).expect(200);
    expect(await statuses(subscription)).toEqual(['parked']);
    // A replay of a finished delivery of the disabled subscription is parked too.
    await query(`UPDATE subscription_delivery SET status = 'failed' WHERE subscription_id = $1`, [subscription]);
    const [row] = await query(`SELECT id FROM subscription_delivery WHERE subscription_id = $1`, [subscription]);
    const replayed = await as(bob.jwt).post(`/api/account/subscriptions/${subscription}/deliveries/${row.id}/replay`).expect(200);
    expect(replayed.body.status).toBe('queued');
    expect(await statuses(subscription)).toEqual(['parked']);

    await as(bob.jwt).post(`/api/account/subscriptions/${subscription}/enable`).expect(200);
    expect(await statuses(subscription)).toEqual(['queued']);
    const again = worker().runOnce();
    await until(() => tarpit.open === 1);
    tarpit.release(200);
    expect(await again).toBe(1);
    expect(await statuses(subscription)).toEqual(['succeeded']);
  });

  it("a claim whose lease lapsed neither renews nor clears the lease of the subscription's next claim", async () => {
    const subscription = await subscribe(alice.jwt, `${tarpit.url}/slow`);
    await event('plugin.deprecate');
    await event('plugin.undeprecate');
    const [first, second] = await query(`SELECT id FROM subscription_delivery WHERE subscription_id = $1 ORDER BY created_at, id`, [
      subscription,
    ]);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '10 minutes' WHERE id = $1`, [first.id]);
    const repo = app.app.get(SubscriptionDeliveriesRepository);

    // Worker A sends the first delivery; the receiver holds it.
    const workerA = worker().runOnce();
    await until(() => tarpit.open === 1);
    // A's heartbeat stalls: its lease lapses, and the subscription's other delivery, due before
    // the first, is claimed by another instance (B).
    await query(`UPDATE subscription_delivery SET locked_until = now() - interval '1 second' WHERE id = $1`, [first.id]);
    await query(`UPDATE subscription SET in_flight_until = now() - interval '1 second' WHERE id = $1`, [subscription]);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [second.id]);
    const claimB = (await repo.claimNext(new Date(), 60_000))!;
    expect(claimB).toMatchObject({ id: second.id, attempts: 1 });

    // A's late heartbeat renews nothing of B's.
    const leaseUntil = async () =>
      (await query(`SELECT in_flight_until FROM subscription WHERE id = $1`, [subscription]))[0].in_flight_until;
    const heldUntil = await leaseUntil();
    expect(await repo.renewLease({ id: first.id, attempts: 1 }, new Date(Date.now() + 10 * 60_000))).toBe(false);
    expect(await leaseUntil()).toEqual(heldUntil);
    // A records its outcome: B's lease stays, so nobody claims a third attempt alongside B's.
    tarpit.release(200);
    expect(await workerA).toBe(1);
    expect(await statuses(subscription)).toEqual(['succeeded', 'processing']);
    expect(await leaseUntil()).toEqual(heldUntil);
    expect(await lease(subscription)).toEqual({ in_flight_until: heldUntil, in_flight_delivery_id: second.id, in_flight_attempts: 1 });
    expect(await repo.renewLease(claimB, new Date(Date.now() + 60_000))).toBe(true);
    expect(await repo.succeeded(claimB, { responseStatus: 200, detail: null, durationMs: 5, at: new Date() })).toBe(true);
    await repo.endInFlight(subscription, claimB);
    expect(await lease(subscription)).toEqual({ in_flight_until: null, in_flight_delivery_id: null, in_flight_attempts: null });
  });

  it('when a claim fails, runOnce settles only after the attempts under way have recorded their outcome', async () => {
    const slow = await subscribe(alice.jwt, `${tarpit.url}/held`);
    const other = await subscribe(alice.jwt, `${receiver.url}/other`);
    await event();
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '10 minutes' WHERE subscription_id = $1`, [slow]);
    // The database refuses any claim while another delivery is under way (as a dropped connection
    // would fail it), counting refusals in a sequence, which no rollback undoes.
    await query(`CREATE SEQUENCE test_claim_refusals`);
    await query(`CREATE FUNCTION test_refuse_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM subscription_delivery WHERE status = 'processing' AND id <> NEW.id) THEN
          PERFORM nextval('test_claim_refusals');
          RAISE EXCEPTION 'the database refused the claim';
        END IF;
        RETURN NEW;
      END $$`);
    await query(
      `CREATE TRIGGER test_refuse_claim BEFORE UPDATE ON subscription_delivery FOR EACH ROW WHEN (NEW.status = 'processing' AND OLD.status <> 'processing') EXECUTE FUNCTION test_refuse_claim()`,
    );
    try {
      let settled = false;
      const outcome = worker()
        .runOnce()
        .then(
          () => null,
          (error: Error) => error,
        )
        .finally(() => (settled = true))
        .then(async (error) => ({ error, statuses: await statuses(slow) }));
      await until(async () => tarpit.open === 1 && (await query(`SELECT is_called FROM test_claim_refusals`))[0].is_called === true);
      await query('SELECT 1');
      expect(settled).toBe(false);
      tarpit.release(200);
      const { error, statuses: atSettle } = await outcome;
      expect(error?.message).toContain('the database refused the claim');
      expect(atSettle).toEqual(['succeeded']);
      expect(await statuses(other)).toEqual(['queued']);
    } finally {
      await query(`DROP TRIGGER test_refuse_claim ON subscription_delivery`);
      await query(`DROP FUNCTION test_refuse_claim()`);
      await query(`DROP SEQUENCE test_claim_refusals`);
    }
  });
});
