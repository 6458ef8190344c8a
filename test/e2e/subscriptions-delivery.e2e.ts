/**
 * Outbound webhooks' delivery worker (docs/subscriptions.md): the worker's parallel attempts with
 * at most one per subscription (a tarpit receiver holds up only its own deliveries), the claim
 * skipping disabled owners, the failing run across a give-up and a quiet week, error rows of the
 * API, and an address refused at send time. Receivers are real servers on loopback; the worker is
 * driven by hand with a movable clock.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AuditService } from '../../src/platform/audit/audit.service';
import { Clock } from '../../src/common/clock';
import { SubscriptionDeliveriesRepository } from '../../src/news/subscriptions/subscription-deliveries.repository';
import {
  DEFAULT_SUBSCRIPTION_WORKER_OPTIONS,
  RETRY_SCHEDULE_MS,
  SUBSCRIPTION_WORKER_OPTIONS,
  SubscriptionWorker,
} from '../../src/news/subscriptions/subscription-worker';
import { SubscriptionsRepository } from '../../src/news/subscriptions/subscriptions.repository';
import { REFUSED_BY_POLICY, WebhookSender } from '../../src/news/subscriptions/webhook-sender';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { startRegistry } from '../support/rotation-world';
import { userWithSession } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** A receiver that holds every request open until `release()` (a tarpit), counting how many are open at once. */
class Tarpit {
  readonly log: string[] = [];
  open = 0;
  maxOpen = 0;
  private released = false;
  private readonly held: ServerResponse[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.open += 1;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        this.log.push(`open ${req.headers['webhook-id']}`);
        res.on('close', () => {
          this.open -= 1;
          this.log.push(`closed ${req.headers['webhook-id']}`);
        });
        if (this.released) res.writeHead(200).end('ok');
        else this.held.push(res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  /** Holds requests again (after `release()`), from an empty log. */
  hold(): void {
    this.released = false;
    this.log.length = 0;
    this.maxOpen = this.open;
  }

  release(): void {
    this.released = true;
    for (const res of this.held.splice(0)) res.writeHead(200).end('late thanks');
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

const DAY = 24 * 60 * 60 * 1000;

describe('outbound webhook delivery: parallel attempts, claims, failing runs, error rows', () => {
  let db: TestDatabase;
  let forge: FakeForge;
  let receiver: WebhookReceiver;
  let tarpit: Tarpit;
  let app: TestApp;
  let env: Record<string, string>;
  let alice: { jwt: string; userId: string };
  let bob: { jwt: string; userId: string };
  let admin: { jwt: string };
  const clock = new MovableClock();

  const start = (extra: Record<string, string> = {}) =>
    startRegistry(db, { ...env, ...extra }, {}, [
      { provide: SUBSCRIPTION_WORKER_OPTIONS, useValue: { ...DEFAULT_SUBSCRIPTION_WORKER_OPTIONS, autoStart: false } },
    ]);
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
  const count = async (table: string) => Number((await query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const subscribe = async (jwt: string, url: string, events = ['plugin.deprecated', 'plugin.undeprecated']) => {
    const res = await as(jwt).post('/api/account/subscriptions', { url, events, scope: 'plugin', target: 'hook-one' }).expect(201);
    return res.body.subscription.id as string;
  };
  /** An event on hook-one, raised the way every feature raises one: an audit entry (the fan-out trigger queues the deliveries). */
  const event = (action: 'plugin.deprecate' | 'plugin.undeprecate' = 'plugin.deprecate') =>
    query(`INSERT INTO audit_entry (action, slug, details) VALUES ($1, 'hook-one', '{"message": "m"}')`, [action]);
  const deliveriesOf = (subscriptionId: string) =>
    query(
      `SELECT id, event_id, status, attempts, response_status, detail, next_attempt_at FROM subscription_delivery WHERE subscription_id = $1 ORDER BY created_at, id`,
      [subscriptionId],
    );
  const shown = async (subscriptionId: string) =>
    (await as(alice.jwt).get(`/api/account/subscriptions/${subscriptionId}`).expect(200)).body;
  /** Moves the clock past the delivery's next attempt and runs the worker. */
  const nextAttempt = async (deliveryId: string) => {
    const [row] = await query(`SELECT next_attempt_at FROM subscription_delivery WHERE id = $1`, [deliveryId]);
    clock.offsetMs = Math.max(clock.offsetMs, new Date(row.next_attempt_at).getTime() - Date.now() + 1000);
    return worker().runOnce();
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    forge = await new FakeForge().start();
    receiver = await new WebhookReceiver().start();
    tarpit = await new Tarpit().start();
    env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FETCH_ALLOW_HOSTS: new URL(forge.url).host,
      // localhost is allowed only while subscribing (the last test restarts without it).
      SUBSCRIPTION_ALLOW_HOSTS: `${receiver.host},${tarpit.host},localhost:${new URL(receiver.url).port}`,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
    };
    app = await start();
    const a = await userWithSession(app, 'alice-delivery');
    alice = { jwt: a.jwt, userId: a.user.id };
    const b = await userWithSession(app, 'bob-delivery');
    bob = { jwt: b.jwt, userId: b.user.id };
    admin = { jwt: (await userWithSession(app, 'root-delivery', 'admin')).jwt };
    const token = (
      await as(alice.jwt)
        .post('/api/auth/me/tokens', { name: 'ci', scopes: ['publish:*'] })
        .expect(201)
    ).body.token;
    const asset = forge.asset('/acme/hook-one/releases/download/v1.0.0/hook-one.zip', { size: 500, seed: 1 });
    await request(app.url)
      .post('/api/publish/hook-one')
      .set('Authorization', `Bearer ${token}`)
      .send({
        manifest: manifestYaml({ name: 'hook-one', version: '1.0.0', description: 'Tells subscribers', tags: ['test'] }),
        manifestSource: 'plugin.yaml',
        version: 'v1.0.0',
        assets: [{ name: 'hook-one.zip', url: asset }],
        repoUrl: `${forge.url}/acme/hook-one`,
      })
      .expect(201);
  });
  afterEach(async () => {
    clock.offsetMs = 0;
    await query(`DELETE FROM subscription`);
  });
  afterAll(async () => {
    await app?.close();
    await tarpit?.stop();
    await receiver?.stop();
    await forge?.stop();
    await db?.drop();
  });

  it('a stalled receiver holds up only its own deliveries, with one request open at a time', async () => {
    const stalled = await subscribe(alice.jwt, `${tarpit.url}/stall`);
    const prompt = await subscribe(alice.jwt, `${receiver.url}/prompt`);
    await event('plugin.deprecate');
    await event('plugin.undeprecate');
    // The stalled subscription's two deliveries are the oldest due, so they are claimed first.
    const [first, second] = await deliveriesOf(stalled);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '10 minutes' WHERE id = $1`, [first.id]);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '9 minutes' WHERE id = $1`, [second.id]);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '1 minute' WHERE subscription_id = $1`, [prompt]);
    const atPrompt = () => receiver.received.filter((h) => h.path === '/prompt');

    // Two workers (two instances) share the queue.
    const running = Promise.all([worker().runOnce(), worker().runOnce()]);
    await until(async () => (await deliveriesOf(prompt)).every((d: { status: string }) => d.status === 'succeeded'));
    // Both of the other subscription's deliveries arrived while the first stalled request is still open, and alone.
    expect(tarpit.log).toHaveLength(1);
    expect(tarpit.log[0]).toMatch(/^open /);
    expect(tarpit.open).toBe(1);
    expect(atPrompt()).toHaveLength(2);
    expect((await deliveriesOf(stalled)).map((d: { status: string }) => d.status)).toEqual(['processing', 'queued']);

    tarpit.release();
    const attempted = await running;
    expect(attempted[0] + attempted[1]).toBe(4);
    // Its second delivery went only once the first was answered: never two open at once.
    expect(tarpit.maxOpen).toBe(1);
    expect(tarpit.log).toEqual([
      `open ${first.event_id}`,
      `closed ${first.event_id}`,
      `open ${second.event_id}`,
      `closed ${second.event_id}`,
    ]);
    expect(await deliveriesOf(stalled)).toMatchObject([{ status: 'succeeded' }, { status: 'succeeded' }]);
    expect((await query(`SELECT in_flight_until FROM subscription WHERE id = $1`, [stalled]))[0].in_flight_until).toBeNull();
  });

  it('claims a delivery that falls due while a stalled receiver holds an attempt open, without waiting for it', async () => {
    tarpit.hold();
    const stalled = await subscribe(alice.jwt, `${tarpit.url}/stall-again`);
    await event('plugin.deprecate');
    const running = worker().runOnce();
    await until(() => tarpit.open === 1);
    // While that attempt is open, another subscription's event falls due: the same pass claims it
    // within a poll interval, not once the stalled request times out (10 s) and closes.
    const prompt = await subscribe(alice.jwt, `${receiver.url}/prompt-again`);
    await event('plugin.undeprecate');
    await until(async () => (await deliveriesOf(prompt)).every((d: { status: string }) => d.status === 'succeeded'));
    expect(tarpit.log).toEqual([expect.stringMatching(/^open /)]);
    expect(receiver.received.filter((h) => h.path === '/prompt-again')).toHaveLength(1);
    tarpit.release();
    expect(await running).toBe(3);
    expect(tarpit.maxOpen).toBe(1);
    expect((await deliveriesOf(stalled)).map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded']);
  });

  it("claims no delivery of a disabled user's subscription until the user is enabled again", async () => {
    const subscription = await subscribe(bob.jwt, `${receiver.url}/bob`);
    await event();
    await as(admin.jwt).patch(`/api/admin/users/${bob.userId}`, { disabled: true }).expect(200);
    expect(await worker().runOnce()).toBe(0);
    expect(await deliveriesOf(subscription)).toMatchObject([{ status: 'parked', attempts: 0 }]);
    expect(receiver.received.filter((h) => h.path === '/bob')).toHaveLength(0);
    await as(admin.jwt).patch(`/api/admin/users/${bob.userId}`, { disabled: false }).expect(200);
    expect(await worker().runOnce()).toBe(1);
    expect(await deliveriesOf(subscription)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
  });

  it('a give-up keeps the failing run; only a success ends it, so a dead receiver told of one event a week is disabled', async () => {
    const subscription = await subscribe(alice.jwt, `${receiver.url}/flaky`, ['plugin.deprecated']);
    const attempts = RETRY_SCHEDULE_MS.length + 1;
    const giveUp = async () => {
      receiver.statuses.set('/flaky', Array(attempts).fill(500));
      await event();
      const delivery = (await deliveriesOf(subscription)).at(-1);
      await worker().runOnce();
      const runStart = (await shown(subscription)).failingSince as number;
      for (let i = 1; i < attempts; i++) await nextAttempt(delivery.id);
      expect((await deliveriesOf(subscription)).at(-1)).toMatchObject({
        status: 'failed',
        attempts,
        detail: expect.stringMatching(/^gave up after 8 attempts/),
      });
      return runStart;
    };

    // A delivery gives up after its last retry: the run it started is kept (still failing, from its first failure).
    const runStart = await giveUp();
    expect(await shown(subscription)).toMatchObject({ status: 'failing', failingSince: runStart });
    // The next success (a new event) ends the run.
    await event();
    expect(await worker().runOnce()).toBe(1);
    expect(await shown(subscription)).toMatchObject({ status: 'active', failingSince: null });

    // Another give-up, then a week with no event (a dead receiver of a quiet plugin): the run is
    // not restarted by the quiet, so the next failure, a week after the run began, disables it.
    const secondRun = await giveUp();
    expect(secondRun).toBeGreaterThan(runStart);
    clock.offsetMs += 7 * DAY;
    receiver.statuses.set('/flaky', [500]);
    await event();
    expect(await worker().runOnce()).toBe(1);
    const disabled = await shown(subscription);
    expect(disabled).toMatchObject({ status: 'disabled', failingSince: secondRun });
    expect(disabled.disabledReason).toContain('5 days');
    expect(await count(`audit_entry WHERE action = 'subscription.disable'`)).toBe(1);
    // Its retry waits, parked, until its owner enables it.
    expect((await deliveriesOf(subscription)).at(-1)).toMatchObject({ status: 'parked', attempts: 1 });
  });

  it("answers 404 for another user's subscription on enable and replay, changing and auditing nothing", async () => {
    const subscription = await subscribe(alice.jwt, `${receiver.url}/mine`);
    await event();
    await worker().runOnce();
    const [delivery] = await deliveriesOf(subscription);
    await query(`UPDATE subscription SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [subscription]);
    const audits = await count('audit_entry');
    for (const caller of [bob.jwt, admin.jwt]) {
      for (const path of [
        `/api/account/subscriptions/${subscription}/enable`,
        `/api/account/subscriptions/${subscription}/deliveries/${delivery.id}/replay`,
      ]) {
        const res = await as(caller).post(path).expect(404);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.body).toMatchObject({ status: 404, type: expect.stringContaining('not-found') });
        // Nothing about the subscription leaks: not its URL, not that it exists.
        expect(JSON.stringify(res.body)).not.toContain('/mine');
      }
    }
    expect(await count('audit_entry')).toBe(audits);
    expect((await query(`SELECT disabled_at FROM subscription WHERE id = $1`, [subscription]))[0].disabled_at).not.toBeNull();
    expect(await deliveriesOf(subscription)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
  });

  it.each([
    ['?page=0', '/page'],
    ['?page=x', '/page'],
    ['?limit=0', '/limit'],
    ['?limit=101', '/limit'],
  ])('answers 400 naming the field for deliveries%s', async (search, path) => {
    const subscription = await subscribe(alice.jwt, `${receiver.url}/paged`);
    const res = await as(alice.jwt).get(`/api/account/subscriptions/${subscription}/deliveries${search}`).expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('refuses an unknown kind as target with 400 naming /target, writing nothing', async () => {
    const before = { subscriptions: await count('subscription'), audits: await count('audit_entry') };
    const res = await as(alice.jwt)
      .post('/api/account/subscriptions', {
        url: `${receiver.url}/kind`,
        events: ['release.published'],
        scope: 'kind',
        target: 'no-such-kind',
      })
      .expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: '/target', message: expect.stringContaining('no kind "no-such-kind"') }),
    ]);
    expect(await count('subscription')).toBe(before.subscriptions);
    expect(await count('audit_entry')).toBe(before.audits);
  });

  it('an address refused at send time is a failed attempt that names no address, retried and given up like any failure', async () => {
    const port = new URL(receiver.url).port;
    // Allowed when subscribing (SUBSCRIPTION_ALLOW_HOSTS has localhost) ...
    const subscription = await subscribe(alice.jwt, `https://localhost:${port}/private`, ['plugin.deprecated']);
    // ... then the operator takes it off the list: at send time localhost is a refused address.
    await app.close();
    app = await start({ SUBSCRIPTION_ALLOW_HOSTS: receiver.host });
    await event();
    expect(await worker().runOnce()).toBe(1);
    const [delivery] = await deliveriesOf(subscription);
    expect(delivery).toMatchObject({ status: 'queued', attempts: 1, response_status: null, detail: REFUSED_BY_POLICY });
    const logged = (await as(alice.jwt).get(`/api/account/subscriptions/${subscription}/deliveries`).expect(200)).body.deliveries[0];
    expect(logged).toMatchObject({ status: 'queued', responseStatus: null, detail: REFUSED_BY_POLICY });
    expect(JSON.stringify(logged)).not.toMatch(/127\.0\.0\.1|::1|loopback|private|local name|resolves to an address/);
    expect((await shown(subscription)).status).toBe('failing');
    for (let i = 1; i <= RETRY_SCHEDULE_MS.length; i++) await nextAttempt(delivery.id);
    const [failed] = await deliveriesOf(subscription);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: RETRY_SCHEDULE_MS.length + 1,
      detail: `gave up after 8 attempts: ${REFUSED_BY_POLICY}`,
    });
    expect(receiver.received.filter((h) => h.path === '/private')).toHaveLength(0);
  });
});
