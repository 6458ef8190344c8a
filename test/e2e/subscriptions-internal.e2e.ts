/**
 * Outbound webhooks and internal hosts (hardening round 4, point 1): a subscription URL does not
 * inherit FETCH_ALLOW_HOSTS (the registry's own reach, an internal forge's), only the operator's
 * SUBSCRIPTION_ALLOW_HOSTS lets one reach a loopback or private address; and no byte of a
 * subscriber's answer comes back to its owner, through a ping, the delivery log (API, web page,
 * CLI) or the database rows they are read from. The "internal service" is a real server on
 * loopback that answers every request with a secret.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AuditService } from '../../src/platform/audit/audit.service';
import { main } from '../../src/cli/main';
import { SystemClock } from '../../src/common/clock';
import { SubscriptionDeliveriesRepository } from '../../src/news/subscriptions/subscription-deliveries.repository';
import {
  DEFAULT_SUBSCRIPTION_WORKER_OPTIONS,
  SUBSCRIPTION_WORKER_OPTIONS,
  SubscriptionWorker,
} from '../../src/news/subscriptions/subscription-worker';
import { SubscriptionsRepository } from '../../src/news/subscriptions/subscriptions.repository';
import { WebhookSender } from '../../src/news/subscriptions/webhook-sender';
import { startRegistry } from '../support/rotation-world';
import { userWithSession } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

const SECRET = `internal-export-${randomBytes(12).toString('hex')}`;

describe('outbound webhooks to internal hosts', () => {
  let db: TestDatabase;
  let internal: WebhookReceiver;
  let app: TestApp;
  let env: Record<string, string>;
  let alice: { jwt: string };
  let admin: { jwt: string };

  const start = (extra: Record<string, string>) =>
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
      new SystemClock(),
    );
  const as = (jwt: string) => ({
    get: (path: string) => request(app.url).get(path).set('Authorization', `Bearer ${jwt}`),
    post: (path: string, body?: object) => request(app.url).post(path).set('Authorization', `Bearer ${jwt}`).send(body),
  });
  const query = (sql: string, params: unknown[] = []) => app.database.dataSource.query(sql, params);
  const count = async (table: string) => Number((await query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const exportUrl = () => `${internal.url}/internal/admin/export`;
  /** Everything the database holds about subscriptions and their deliveries, and the audit trail, as text. */
  const stored = async () =>
    JSON.stringify([
      await query(`SELECT * FROM subscription_delivery`),
      await query(`SELECT id, url, disabled_reason FROM subscription`),
      await query(`SELECT details FROM audit_entry`),
      await query(`SELECT details FROM subscription_event`),
    ]);

  beforeAll(async () => {
    db = await createTestDatabase();
    internal = await new WebhookReceiver().start();
    internal.answer = SECRET;
    env = {
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      // As the docs recommend for an internal forge on that host.
      FETCH_ALLOW_HOSTS: internal.host,
    };
    app = await start({});
    alice = { jwt: (await userWithSession(app, 'alice-internal')).jwt };
    admin = { jwt: (await userWithSession(app, 'root-internal', 'admin')).jwt };
  });
  afterAll(async () => {
    await app?.close();
    await internal?.stop();
    await db?.drop();
  });

  it('refuses a loopback URL that only FETCH_ALLOW_HOSTS allows, with 400 naming /url, storing and sending nothing', async () => {
    const before = { subscriptions: await count('subscription'), audits: await count('audit_entry') };
    for (const [url, message] of [
      [exportUrl(), 'url: must be an https URL'],
      [exportUrl().replace('http:', 'https:'), 'url: must resolve to a public address'],
    ]) {
      for (const jwt of [alice.jwt, admin.jwt]) {
        const res = await as(jwt)
          .post('/api/account/subscriptions', { url, events: ['plugin.created'], scope: 'owned' })
          .expect(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.body.errors).toEqual([{ path: '/url', message }]);
        // Neither the fetcher's allow-list nor the address is named.
        expect(JSON.stringify(res.body)).not.toMatch(/FETCH_ALLOW_HOSTS|loopback|private|127\.0\.0\.1:\d+ resolves/);
      }
    }
    expect(await count('subscription')).toBe(before.subscriptions);
    expect(await count('audit_entry')).toBe(before.audits);
    expect(internal.received).toHaveLength(0);
  });

  it('allows it when SUBSCRIPTION_ALLOW_HOSTS names the host, and no response, log or row carries the answer', async () => {
    await app.close();
    app = await start({ SUBSCRIPTION_ALLOW_HOSTS: internal.host });

    // A user's ping: the status and the time taken, nothing of the answer.
    const mine = (
      await as(alice.jwt)
        .post('/api/account/subscriptions', { url: exportUrl(), events: ['plugin.created'], scope: 'owned' })
        .expect(201)
    ).body;
    expect(mine.subscription.url).toBe(exportUrl());
    const ping = await as(alice.jwt).post(`/api/account/subscriptions/${mine.subscription.id}/ping`).expect(200);
    expect(ping.body).toEqual({ ok: true, responseStatus: 200, detail: null, durationMs: expect.any(Number) });
    expect(internal.received.at(-1)?.path).toBe('/internal/admin/export');
    internal.statuses.set('/internal/admin/export', [500]);
    const failing = await as(alice.jwt).post(`/api/account/subscriptions/${mine.subscription.id}/ping`).expect(200);
    expect(failing.body).toEqual({ ok: false, responseStatus: 500, detail: 'not a 2xx answer', durationMs: expect.any(Number) });

    // An admin's registry-wide subscription: one delivery succeeds, then a replay fails with 500.
    const sub = (
      await as(admin.jwt)
        .post('/api/account/subscriptions', { url: exportUrl(), events: ['key.rotated'], scope: 'registry' })
        .expect(201)
    ).body;
    await query(`INSERT INTO audit_entry (action, details) VALUES ('key.rotate', '{}')`);
    expect(await worker().runOnce()).toBe(1);
    const log = (await as(admin.jwt).get(`/api/account/subscriptions/${sub.subscription.id}/deliveries`).expect(200)).body;
    expect(log.deliveries).toEqual([
      expect.objectContaining({ status: 'succeeded', responseStatus: 200, detail: null, durationMs: expect.any(Number) }),
    ]);
    internal.statuses.set('/internal/admin/export', [500]);
    await as(admin.jwt).post(`/api/account/subscriptions/${sub.subscription.id}/deliveries/${log.deliveries[0].id}/replay`).expect(200);
    expect(await worker().runOnce()).toBe(1);
    const retried = (await as(admin.jwt).get(`/api/account/subscriptions/${sub.subscription.id}/deliveries`).expect(200)).body;
    expect(retried.deliveries).toEqual([
      expect.objectContaining({ status: 'queued', responseStatus: 500, detail: 'not a 2xx answer', durationMs: expect.any(Number) }),
    ]);
    expect(internal.received.length).toBeGreaterThanOrEqual(4);

    // Every way the owner reads it back: the API above, the web page, the CLI, and the rows beneath.
    const page = await request(app.url).get('/account/subscriptions').set('Cookie', `registry_session=${admin.jwt}`).expect(200);
    expect(page.text).toMatch(/500 not a 2xx answer \(\d+ ms\)/);
    let cliOut = '';
    const code = await main(['subscriptions', 'deliveries', sub.subscription.id, '--json'], {
      stdout: (text) => void (cliOut += text),
      stderr: (text) => void (cliOut += text),
      cwd: process.cwd(),
      env: { REGISTRY_URL: app.url, REGISTRY_SESSION: admin.jwt },
      fetch: globalThis.fetch,
    });
    expect(code).toBe(0);
    for (const text of [JSON.stringify([ping.body, failing.body, log, retried]), page.text, cliOut, await stored()])
      expect(text).not.toContain(SECRET);
  });
});
