/**
 * Outbound webhooks (docs/subscriptions.md): subscriptions through the API, events from the audit
 * trigger, signed deliveries to a real receiver on loopback (verified with the `standardwebhooks`
 * reference package), retries, restart, de-duplication, disabling after days, replay and ping. The
 * worker is driven by hand (autoStart off) with a clock the test moves.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { AuditService } from '../../src/platform/audit/audit.service';
import { main } from '../../src/cli/main';
import { Clock } from '../../src/common/clock';
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

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const DAY = 24 * 60 * 60 * 1000;

describe('outbound webhook subscriptions', () => {
  let db: TestDatabase;
  let forge: FakeForge;
  let receiver: WebhookReceiver;
  let app: TestApp;
  let env: Record<string, string>;
  let alice: { jwt: string; userId: string; token: string };
  let admin: { jwt: string };
  const clock = new MovableClock();
  let published = 0;

  const start = () =>
    startRegistry(db, env, {}, [
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
    delete: (path: string) => request(app.url).delete(path).set('Authorization', `Bearer ${jwt}`),
    patch: (path: string, body: object) => request(app.url).patch(path).set('Authorization', `Bearer ${jwt}`).send(body),
  });
  const query = (sql: string, params: unknown[] = []) => app.database.dataSource.query(sql, params);
  const count = async (table: string) => Number((await query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const publish = (slug: string, version: string, manifest: Record<string, unknown> = {}) => {
    published += 1;
    const asset = forge.asset(`/acme/${slug}/releases/download/v${version}/${slug}.zip`, { size: 500, seed: published });
    return request(app.url)
      .post(`/api/publish/${slug}`)
      .set('Authorization', `Bearer ${alice.token}`)
      .send({
        manifest: manifestYaml({ name: slug, version, description: 'Tells subscribers', tags: ['test'], ...manifest }),
        manifestSource: 'plugin.yaml',
        version: `v${version}`,
        assets: [{ name: `${slug}.zip`, url: asset }],
        repoUrl: `${forge.url}/acme/${slug}`,
      });
  };
  const subscribe = async (jwt: string, body: object) => {
    const res = await as(jwt).post('/api/account/subscriptions', body).expect(201);
    return res.body as { subscription: { id: string; status: string }; secret: string };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    forge = await new FakeForge().start();
    receiver = await new WebhookReceiver().start();
    env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FETCH_ALLOW_HOSTS: new URL(forge.url).host,
      SUBSCRIPTION_ALLOW_HOSTS: receiver.host,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
    };
    app = await start();
    const a = await userWithSession(app, 'alice-subscriber');
    const token = await as(a.jwt)
      .post('/api/auth/me/tokens', { name: 'ci', scopes: ['publish:*'] })
      .expect(201);
    alice = { jwt: a.jwt, userId: a.user.id, token: token.body.token };
    admin = { jwt: (await userWithSession(app, 'root-subscriber', 'admin')).jwt };
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
    await forge?.stop();
    await db?.drop();
  });

  it('refuses bad subscriptions with 400/403 naming the field, writing nothing', async () => {
    const before = { subs: await count('subscription'), audit: await count('audit_entry') };
    const bad = async (status: number, body: object, path?: string) => {
      const res = await as(alice.jwt).post('/api/account/subscriptions', body).expect(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (path) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await bad(400, { url: 'http://hooks.example.com/x', events: ['release.published'], scope: 'owned' }, '/url');
    await bad(400, { url: 'https://10.1.2.3/hook', events: ['release.published'], scope: 'owned' }, '/url');
    await bad(400, { url: 'https://169.254.169.254/latest', events: ['release.published'], scope: 'owned' }, '/url');
    // The refusal does not say what the host resolves to.
    const internal = await as(alice.jwt)
      .post('/api/account/subscriptions', { url: 'https://10.9.8.7/hook', events: ['release.published'], scope: 'owned' })
      .expect(400);
    expect(JSON.stringify(internal.body)).toContain('must resolve to a public address');
    expect(JSON.stringify(internal.body)).not.toMatch(/private|loopback|resolves to an address/);
    await bad(
      400,
      { url: `${receiver.url}/x`.replace('http://', 'http://user:pw@'), events: ['release.published'], scope: 'owned' },
      '/url',
    );
    await bad(400, { url: `https://a.example/${'x'.repeat(2100)}`, events: ['release.published'], scope: 'owned' }, '/url');
    await bad(400, { url: `${receiver.url}/x`, events: ['release.nope'], scope: 'owned' }, '/events');
    await bad(400, { url: `${receiver.url}/x`, events: [], scope: 'owned' }, '/events');
    await bad(400, { url: `${receiver.url}/x`, events: ['release.published'], scope: 'plugin', target: 'no-such-plugin' }, '/target');
    await bad(400, { url: `${receiver.url}/x`, events: ['release.published'], scope: 'owned', target: 'x' }, '/target');
    await bad(403, { url: `${receiver.url}/x`, events: ['ingest.failed'], scope: 'owned' });
    await bad(403, { url: `${receiver.url}/x`, events: ['release.published'], scope: 'registry' });
    await request(app.url).get('/api/account/subscriptions').expect(401);
    expect(await count('subscription')).toBe(before.subs);
    expect(await count('audit_entry')).toBe(before.audit);
  });

  it('delivers a publish to an owner, signed so that the Standard Webhooks verifier accepts it', async () => {
    const sub = await subscribe(alice.jwt, {
      url: `${receiver.url}/owned`,
      events: ['release.published', 'plugin.created'],
      scope: 'owned',
      description: 'mine',
    });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(sub.subscription).toMatchObject({ status: 'active', scope: 'owned', target: null });
    // The secret is shown once: never in the list, never stored in clear.
    const listed = await as(alice.jwt).get('/api/account/subscriptions').expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(sub.secret);
    expect(JSON.stringify(await query('SELECT * FROM subscription'))).not.toContain(sub.secret.slice(6, 30));
    expect((await query(`SELECT action FROM audit_entry WHERE action = 'subscription.create'`)).length).toBe(1);

    await publish('hook-alpha', '1.0.0').expect(201);
    expect(await worker().runOnce()).toBe(2);
    const hooks = receiver.received.filter((h) => h.path === '/owned');
    expect(hooks.map((h) => JSON.parse(h.body).type).sort()).toEqual(['plugin.created', 'release.published']);
    const verifier = new Webhook(sub.secret);
    for (const hook of hooks) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(verifier.verify(hook.body, WebhookReceiver.signatureHeaders(hook))).toEqual(JSON.parse(hook.body));
      // A forged body does not verify.
      expect(() => verifier.verify(hook.body.replace('hook-alpha', 'hook-omega'), WebhookReceiver.signatureHeaders(hook))).toThrow();
    }
    const release = JSON.parse(hooks.find((h) => JSON.parse(h.body).type === 'release.published')!.body);
    expect(release.data).toEqual({ slug: 'hook-alpha', kind: null, url: `${app.config.baseUrl}/plugins/hook-alpha`, version: '1.0.0' });
    expect(Date.parse(release.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    const log = await as(alice.jwt).get(`/api/account/subscriptions/${sub.subscription.id}/deliveries`).expect(200);
    expect(log.body.total).toBe(2);
    expect(log.body.deliveries[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      detail: null,
      durationMs: expect.any(Number),
    });
    expect(hooks.map((h) => h.headers['webhook-id']).sort()).toEqual(log.body.deliveries.map((d: { eventId: string }) => d.eventId).sort());
  });

  it('sends operational events to admins only, and an ingest error to no owner', async () => {
    const ops = await subscribe(admin.jwt, {
      url: `${receiver.url}/ops`,
      events: ['ingest.failed', 'release.published'],
      scope: 'registry',
    });
    const before = receiver.received.length;
    await publish('hook-alpha', '2.0.0', { version: 'not-a-version' }).expect(422);
    await publish('hook-beta', '1.0.0').expect(201);
    expect(await worker().runOnce()).toBe(4); // ops: ingest.failed + release.published; alice: beta's two
    const fresh = receiver.received.slice(before);
    const opsTypes = fresh
      .filter((h) => h.path === '/ops')
      .map((h) => JSON.parse(h.body).type)
      .sort();
    expect(opsTypes).toEqual(['ingest.failed', 'release.published']);
    expect(fresh.filter((h) => h.path === '/owned').map((h) => JSON.parse(h.body).type)).not.toContain('ingest.failed');
    const failure = JSON.parse(fresh.find((h) => JSON.parse(h.body).type === 'ingest.failed')!.body);
    expect(failure.data).toMatchObject({ slug: 'hook-alpha', action: 'plugin.publish_invalid' });
    const verifier = new Webhook(ops.secret);
    for (const hook of fresh.filter((h) => h.path === '/ops')) verifier.verify(hook.body, WebhookReceiver.signatureHeaders(hook));
    await as(admin.jwt).delete(`/api/account/subscriptions/${ops.subscription.id}`).expect(204);
    await as(admin.jwt).get(`/api/account/subscriptions/${ops.subscription.id}`).expect(404);
  });

  it('retries a 500 on the schedule, survives a restart, and never delivers an event twice', async () => {
    const sub = await subscribe(alice.jwt, {
      url: `${receiver.url}/retry`,
      events: ['release.published'],
      scope: 'plugin',
      target: 'hook-alpha',
    });
    receiver.statuses.set('/retry', [500]);
    await publish('hook-alpha', '3.0.0').expect(201);
    await worker().runOnce();
    const atRetry = () => receiver.received.filter((h) => h.path === '/retry');
    expect(atRetry()).toHaveLength(1);
    let [row] = await query(
      `SELECT status, attempts, response_status, next_attempt_at, detail FROM subscription_delivery WHERE subscription_id = $1`,
      [sub.subscription.id],
    );
    expect(row).toMatchObject({ status: 'queued', attempts: 1, response_status: 500 });
    expect(new Date(row.next_attempt_at).getTime() - Date.now()).toBeGreaterThan(3_000);
    expect((await as(alice.jwt).get(`/api/account/subscriptions/${sub.subscription.id}`).expect(200)).body.status).toBe('failing');
    // Not due yet: nothing is sent.
    expect(await worker().runOnce()).toBe(0);

    // A restart keeps the queued retry (it is a row); two workers then race for it.
    await app.close();
    app = await start();
    clock.offsetMs = 6_000;
    const attempted = await Promise.all([worker().runOnce(), worker().runOnce(), worker().runOnce()]);
    expect(attempted.reduce((a, b) => a + b, 0)).toBe(1);
    expect(atRetry()).toHaveLength(2);
    expect(atRetry()[0].headers['webhook-id']).toBe(atRetry()[1].headers['webhook-id']);
    [row] = await query(`SELECT status, attempts, response_status FROM subscription_delivery WHERE subscription_id = $1`, [
      sub.subscription.id,
    ]);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200 });
    expect((await as(alice.jwt).get(`/api/account/subscriptions/${sub.subscription.id}`).expect(200)).body.status).toBe('active');
    // The same event queued again for the same subscription is a no-op (unique per subscription and event).
    const [delivery] = await query(`SELECT event_id FROM subscription_delivery WHERE subscription_id = $1`, [sub.subscription.id]);
    await query(`INSERT INTO subscription_delivery (subscription_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      sub.subscription.id,
      delivery.event_id,
    ]);
    expect(await worker().runOnce()).toBe(0);
    expect(atRetry()).toHaveLength(2);

    // Replay by hand: the same webhook-id again.
    const replayed = await as(alice.jwt)
      .post(
        `/api/account/subscriptions/${sub.subscription.id}/deliveries/${(await query(`SELECT id FROM subscription_delivery WHERE subscription_id = $1`, [sub.subscription.id]))[0].id}/replay`,
      )
      .expect(200);
    expect(replayed.body).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await worker().runOnce()).toBe(1);
    expect(atRetry()[2].headers['webhook-id']).toBe(atRetry()[0].headers['webhook-id']);
    await as(alice.jwt)
      .post(`/api/account/subscriptions/${sub.subscription.id}/deliveries/00000000-0000-0000-0000-000000000000/replay`)
      .expect(404);
    await as(admin.jwt)
      .post(`/api/account/subscriptions/${sub.subscription.id}/deliveries/00000000-0000-0000-0000-000000000000/replay`)
      .expect(404);
    await as(alice.jwt).delete(`/api/account/subscriptions/${sub.subscription.id}`).expect(204);
    clock.offsetMs = 0;
  });

  it('disables a subscription failing for 5 days and tells its owner; enabling sends what waited', async () => {
    const sub = await subscribe(alice.jwt, {
      url: `${receiver.url}/down`,
      events: ['release.yanked', 'release.published'],
      scope: 'plugin',
      target: 'hook-beta',
    });
    receiver.statuses.set('/down', [503, 503, 503]);
    clock.offsetMs = 0;
    await publish('hook-beta', '2.0.0').expect(201);
    await worker().runOnce();
    const [first] = await query(`SELECT id FROM subscription_delivery WHERE subscription_id = $1`, [sub.subscription.id]);
    // Four days on, still failing: not yet disabled.
    clock.offsetMs = 4 * DAY;
    await worker().runOnce();
    expect((await as(alice.jwt).get(`/api/account/subscriptions/${sub.subscription.id}`).expect(200)).body.status).toBe('failing');
    clock.offsetMs = 5 * DAY + 60_000;
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() WHERE id = $1`, [first.id]);
    await worker().runOnce();
    const shown = (await as(alice.jwt).get(`/api/account/subscriptions/${sub.subscription.id}`).expect(200)).body;
    expect(shown).toMatchObject({ status: 'disabled' });
    expect(shown.disabledReason).toContain('5 days');
    expect((await query(`SELECT details FROM audit_entry WHERE action = 'subscription.disable'`))[0].details.subscriptionId).toBe(
      sub.subscription.id,
    );
    // Disabled: a due delivery waits, parked, and new events are not queued for it.
    expect((await query(`SELECT status FROM subscription_delivery WHERE id = $1`, [first.id]))[0].status).toBe('parked');
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [first.id]);
    const sentBefore = receiver.received.length;
    expect(await worker().runOnce()).toBe(0);
    await publish('hook-beta', '2.1.0').expect(201);
    expect(await count(`subscription_delivery WHERE subscription_id = '${sub.subscription.id}'`)).toBe(1);
    expect(receiver.received.length).toBe(sentBefore);
    const enabled = await as(alice.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/enable`).expect(200);
    expect(enabled.body.status).toBe('active');
    await as(alice.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/enable`).expect(409);
    const down = () => receiver.received.filter((h) => h.path === '/down').length;
    const downBefore = down();
    await worker().runOnce();
    expect(down()).toBe(downBefore + 1);
    clock.offsetMs = 0;
  });

  it('pings on demand, keeps others out, and limits each user to 25 subscriptions', async () => {
    const sub = await subscribe(alice.jwt, { url: `${receiver.url}/ping`, events: ['plugin.created'], scope: 'owned' });
    const ping = await as(alice.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/ping`).expect(200);
    expect(ping.body).toEqual({ ok: true, responseStatus: 200, detail: null, durationMs: expect.any(Number) });
    const hook = receiver.received.at(-1)!;
    expect(new Webhook(sub.secret).verify(hook.body, WebhookReceiver.signatureHeaders(hook))).toMatchObject({ type: 'webhook.ping' });
    await as(admin.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/ping`).expect(404);
    // Pings are limited per user: past the setting, 429 with Retry-After and nothing sent.
    await as(admin.jwt).patch('/api/admin/settings', { 'ratelimit.subscription_ping_per_hour': 1 }).expect(200);
    const sent = receiver.received.length;
    const limited = await as(alice.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/ping`).expect(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(receiver.received.length).toBe(sent);
    // A replay sends at once too: it shares the ping's bucket.
    const [finished] = await query(
      `SELECT d.id, d.subscription_id FROM subscription_delivery d JOIN subscription s ON s.id = d.subscription_id WHERE s.user_id = $1 AND d.status = 'succeeded' LIMIT 1`,
      [alice.userId],
    );
    const replays = () => query(`SELECT status, attempts FROM subscription_delivery WHERE id = $1`, [finished.id]);
    const beforeReplay = await replays();
    await as(alice.jwt).post(`/api/account/subscriptions/${finished.subscription_id}/deliveries/${finished.id}/replay`).expect(429);
    expect(await replays()).toEqual(beforeReplay);
    await as(admin.jwt).patch('/api/admin/settings', { 'ratelimit.subscription_ping_per_hour': 30 }).expect(200);
    // Only a finished delivery is replayed: a queued one answers 409 and stays as it was.
    await query(`UPDATE subscription_delivery SET status = 'queued', next_attempt_at = now() + interval '1 day' WHERE id = $1`, [
      finished.id,
    ]);
    const notFinished = await as(alice.jwt)
      .post(`/api/account/subscriptions/${finished.subscription_id}/deliveries/${finished.id}/replay`)
      .expect(409);
    expect(notFinished.body.type).toContain('delivery-not-finished');
    expect((await replays())[0]).toMatchObject({ status: 'queued', attempts: beforeReplay[0].attempts });
    await query(`UPDATE subscription_delivery SET status = 'succeeded' WHERE id = $1`, [finished.id]);
    await as(admin.jwt).delete(`/api/account/subscriptions/${sub.subscription.id}`).expect(404);
    await as(alice.jwt).get('/api/account/subscriptions/not-a-uuid').expect(404);
    const have = (await as(alice.jwt).get('/api/account/subscriptions').expect(200)).body.subscriptions.length;
    // Up to 24 written directly (faster), the 25th through the API.
    for (let i = have; i < 24; i++) {
      await query(`INSERT INTO subscription (user_id, url, events, scope, secret_sealed) VALUES ($1, $2, $3, 'owned', '\\x00')`, [
        alice.userId,
        `${receiver.url}/n${i}`,
        i === have ? '{plugin.created}' : '{plugin.undeprecated}',
      ]);
    }
    await subscribe(alice.jwt, { url: `${receiver.url}/n25`, events: ['plugin.created'], scope: 'owned' });
    // A sealed secret that cannot be opened: 409, nothing sent.
    const [broken] = await query(`SELECT id FROM subscription WHERE user_id = $1 AND url LIKE '%/n%' AND secret_sealed = '\\x00' LIMIT 1`, [
      alice.userId,
    ]);
    const sentBeforeBroken = receiver.received.length;
    const unreadable = await as(alice.jwt).post(`/api/account/subscriptions/${broken.id}/ping`).expect(409);
    expect(unreadable.body.type).toContain('signing-secret-unreadable');
    expect(receiver.received.length).toBe(sentBeforeBroken);
    const audits = await count('audit_entry');
    const refused = await as(alice.jwt)
      .post('/api/account/subscriptions', { url: `${receiver.url}/n26`, events: ['plugin.created'], scope: 'owned' })
      .expect(409);
    expect(refused.body.type).toContain('subscription-limit-reached');
    expect(await count('audit_entry')).toBe(audits);
  });

  it('the CLI lists, creates, pings, shows deliveries, replays and deletes with REGISTRY_SESSION', async () => {
    const cli = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await main(['subscriptions', ...args], {
        stdout: (text) => void (out += text),
        stderr: (text) => void (err += text),
        cwd: process.cwd(),
        env: { REGISTRY_URL: app.url, REGISTRY_SESSION: admin.jwt },
        fetch: globalThis.fetch,
      });
      return { code, out, err };
    };
    const created = await cli(
      'create',
      '--url',
      `${receiver.url}/cli`,
      '--event',
      'release.published',
      '--event',
      'key.rotated',
      '--scope',
      'registry',
      '--json',
    );
    expect(created.code).toBe(0);
    const { subscription, secret } = JSON.parse(created.out);
    expect(secret).toMatch(/^whsec_/);
    expect((await cli('list')).out).toContain(`${subscription.id}  active`);
    expect((await cli('ping', subscription.id)).out).toMatch(/^ok: 200 \(\d+ ms\)\n$/);
    await publish('hook-gamma', '1.0.0').expect(201);
    await worker().runOnce();
    // A subscription whose sealed secret cannot be opened fails its delivery; the worker carries on.
    const [broken] = await query(
      `SELECT d.status, d.detail FROM subscription_delivery d JOIN subscription s ON s.id = d.subscription_id WHERE s.url LIKE '%/n%' AND s.secret_sealed = '\\x00'`,
    );
    expect(broken).toMatchObject({ status: 'queued', detail: expect.stringContaining('signing secret cannot be opened') });
    const deliveries = JSON.parse((await cli('deliveries', subscription.id, '--json')).out);
    expect(deliveries.deliveries).toMatchObject([{ type: 'release.published', slug: 'hook-gamma', status: 'succeeded' }]);
    expect((await cli('replay', subscription.id, deliveries.deliveries[0].id)).out).toContain('queued');
    const refused = await cli('create', '--url', 'https://10.0.0.1/x', '--event', 'release.published', '--scope', 'owned');
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.err).toContain('/url');
    expect((await cli('delete', subscription.id)).code).toBe(0);
    expect((await cli('delete', subscription.id)).code).toBe(1);
    expect((await cli('create', '--token', 'x')).code).toBe(2);
  });

  it('stores an event only when a delivery is queued, with only the details its payload shows', async () => {
    const events = await count('subscription_event');
    // No subscription covers a plugin nobody has: no event row.
    await query(
      `INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.deprecate', 'nobody-has-this', '{"message": "m", "actor": "x"}')`,
    );
    // An action no event comes from does not even call the fan-out (the trigger's WHEN).
    await query(`INSERT INTO audit_entry (action, details) VALUES ('auth.login', '{}')`);
    expect(await count('subscription_event')).toBe(events);
    const [trigger] = await query(`SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'subscription_fan_out'`);
    expect(trigger.def).toContain('WHEN');
    const stored = await query(`SELECT details FROM subscription_event WHERE type = 'release.published'`);
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(Object.keys(row.details)).toEqual(['version']);
  });

  // Two connections: PostgreSQL only (the embedded engine has one).
  (process.env.DATABASE_URL ? it : it.skip)('a subscription deleted while a publish commits never fails the publish', async () => {
    const [doomed] = await query(
      `INSERT INTO subscription (user_id, url, events, scope, secret_sealed) VALUES ($1, $2, '{release.published}', 'owned', '\\x00') RETURNING id`,
      [alice.userId, `${receiver.url}/doomed`],
    );
    const deleter = app.database.dataSource.createQueryRunner();
    try {
      await deleter.startTransaction();
      await deleter.query(`DELETE FROM subscription WHERE id = $1`, [doomed.id]);
      const publishing = publish('hook-race', '1.0.0').then((res) => res);
      // The publish's commit waits for the deleting transaction (the fan-out's FOR KEY SHARE).
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const waiting = await query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        );
        if (waiting[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await deleter.commitTransaction();
      expect((await publishing).status).toBe(201);
    } finally {
      await deleter.release();
    }
    expect(await count(`subscription_delivery WHERE subscription_id = '${doomed.id}'`)).toBe(0);
    const [event] = await query(`SELECT id FROM subscription_event WHERE slug = 'hook-race' AND type = 'release.published'`);
    expect(await count(`subscription_delivery WHERE event_id = '${event.id}'`)).toBeGreaterThan(0);
  });

  it('deletes finished deliveries 30 days after their last attempt, then their events', async () => {
    const [old] = await query(`SELECT event_id FROM subscription_delivery WHERE status = 'succeeded' LIMIT 1`);
    await query(`UPDATE subscription_delivery SET status = 'succeeded', last_attempt_at = now() - interval '31 days' WHERE event_id = $1`, [
      old.event_id,
    ]);
    const [waiting] = await query(`SELECT id, event_id FROM subscription_delivery WHERE event_id <> $1 LIMIT 1`, [old.event_id]);
    await query(
      `UPDATE subscription_delivery SET status = 'queued', next_attempt_at = now() + interval '1 year', created_at = now() - interval '40 days', last_attempt_at = now() - interval '40 days' WHERE id = $1`,
      [waiting.id],
    );
    const recent = await count(`subscription_delivery WHERE event_id <> '${old.event_id}'`);
    expect(await worker().prune()).toBeGreaterThan(0);
    expect(await count(`subscription_delivery WHERE event_id = '${old.event_id}'`)).toBe(0);
    expect(await count(`subscription_event WHERE id = '${old.event_id}'`)).toBe(0);
    // Unfinished or recent deliveries stay, and so do their events.
    expect(await count(`subscription_delivery WHERE event_id <> '${old.event_id}'`)).toBe(recent);
    expect(await count(`subscription_event WHERE id = '${waiting.event_id}'`)).toBe(1);
  });

  it('a worker whose lease lapsed cannot renew or record over the next claim', async () => {
    const repo = app.app.get(SubscriptionDeliveriesRepository);
    await query(`UPDATE subscription_delivery SET next_attempt_at = now() + interval '1 year' WHERE status = 'queued'`);
    const [row] = await query(`SELECT id FROM subscription_delivery WHERE status = 'succeeded' LIMIT 1`);
    await query(`UPDATE subscription_delivery SET status = 'queued', next_attempt_at = now() - interval '1 minute' WHERE id = $1`, [
      row.id,
    ]);
    const first = (await repo.claimNext(new Date(), 60_000))!;
    expect(first.id).toBe(row.id);
    // The lease lapses (its instance stalled): the delivery's and its subscription's in-flight lease together.
    await query(`UPDATE subscription_delivery SET locked_until = now() - interval '1 second' WHERE id = $1`, [row.id]);
    await query(
      `UPDATE subscription SET in_flight_until = now() - interval '1 second' WHERE id = (SELECT subscription_id FROM subscription_delivery WHERE id = $1)`,
      [row.id],
    );
    const second = (await repo.claimNext(new Date(), 60_000))!;
    expect(second).toMatchObject({ id: row.id, attempts: first.attempts + 1 });
    const record = { responseStatus: 200, detail: 'late', durationMs: 5, at: new Date() };
    expect(await repo.renewLease(first, new Date())).toBe(false);
    expect(await repo.succeeded(first, record)).toBe(false);
    expect(await repo.failed(first, record)).toBe(false);
    expect((await query(`SELECT status, attempts FROM subscription_delivery WHERE id = $1`, [row.id]))[0]).toEqual({
      status: 'processing',
      attempts: second.attempts,
    });
    expect(await repo.succeeded(second, record)).toBe(true);
  });
});
