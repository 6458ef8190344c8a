/**
 * Rate limits over HTTP (DECISIONS 10): per IP on reads, webhooks, sign-in and the wizard, per
 * publisher token on publish; 429 problem+json with Retry-After; limits are settings; the client
 * address comes from X-Forwarded-For only from trusted proxies; with Redis down reads go on and
 * publish is refused; two instances on one Redis share each counter. Each app's clock is frozen,
 * so no window boundary can fall inside a test.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { freePort } from '../support/free-port';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const NOW = Date.now();

function freezeClock(app: TestApp): void {
  jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => new Date(NOW));
}

async function setLimits(app: TestApp, limits: Record<string, number>): Promise<void> {
  const admin = (await userWithSession(app, `root${Math.random().toString(36).slice(2, 8)}`, 'admin')).jwt;
  await request(app.url).patch('/api/admin/settings').set('Authorization', `Bearer ${admin}`).send(limits).expect(200);
}

describe('rate limits', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    freezeClock(app);
    await setLimits(app, { 'ratelimit.public_read_per_min': 3, 'ratelimit.publish_per_min': 2, 'ratelimit.webhook_per_min': 2, 'ratelimit.signin_per_min': 2 });
  });
  afterAll(() => app?.close());

  const from = (ip: string, test: request.Test) => test.set('X-Forwarded-For', ip);

  it('refuses the read past the limit with 429 problem+json and Retry-After, per client address', async () => {
    for (let i = 0; i < 3; i++) await from('198.51.100.1', request(app.url).get('/api/plugins')).expect(200);
    const refused = await from('198.51.100.1', request(app.url).get('/api/plugins/anything')).expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, type: `${app.config.baseUrl}/problems/rate-limited` });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    // Another client is counted apart; probes are never limited.
    await from('198.51.100.2', request(app.url).get('/api/plugins')).expect(200);
    await from('198.51.100.1', request(app.url).get('/health/live')).expect(200);
  });

  it('counts publish per token, and per address without one', async () => {
    const push = (authorization?: string) => {
      const req = from('198.51.100.3', request(app.url).post('/api/publish/alpha')).send({});
      return authorization ? req.set('Authorization', authorization) : req;
    };
    await push('Bearer token-one').expect(401);
    await push('Bearer token-one').expect(401);
    await push('Bearer token-one').expect(429);
    await push('Bearer token-two').expect(401);
    await push().expect(401);
    await push().expect(401);
    const refused = await push().expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('counts webhooks, sign-in and the install wizard per address', async () => {
    const hook = () => from('198.51.100.4', request(app.url).post('/api/webhooks/release')).send({});
    await hook().expect(401);
    await hook().expect(401);
    await hook().expect(429);
    const signIn = () => from('198.51.100.4', request(app.url).get('/auth/nowhere/login'));
    await signIn().expect(404);
    await signIn().expect(404);
    await signIn().expect(429);
    const wizard = () => from('198.51.100.4', request(app.url).get('/api/init/status'));
    await wizard().expect((res) => expect(res.status).not.toBe(429));
    await wizard().expect((res) => expect(res.status).not.toBe(429));
    await wizard().expect(429);
  });

  it('applies a changed limit at once', async () => {
    await setLimits(app, { 'ratelimit.public_read_per_min': 5 });
    await from('198.51.100.1', request(app.url).get('/api/plugins')).expect(200);
  });
});

describe('rate limits behind an untrusted peer (TRUST_PROXY=false)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'false' });
    freezeClock(app);
    await setLimits(app, { 'ratelimit.public_read_per_min': 2 });
  });
  afterAll(() => app?.close());

  it('ignores X-Forwarded-For, so changing it does not buy more requests', async () => {
    await request(app.url).get('/api/plugins').set('X-Forwarded-For', '198.51.100.10').expect(200);
    await request(app.url).get('/api/plugins').set('X-Forwarded-For', '198.51.100.11').expect(200);
    await request(app.url).get('/api/plugins').set('X-Forwarded-For', '198.51.100.12').expect(429);
  });
});

describe('rate limits with Redis unreachable', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  });
  afterAll(() => app?.close());

  it('fails open for reads and closed for publish, sign-in and the wizard (503 with Retry-After)', async () => {
    await request(app.url).get('/api/plugins').expect(200);
    await request(app.url).get('/api/plugins').expect(200);
    const refused = await request(app.url).post('/api/publish/alpha').set('Authorization', 'Bearer whatever').send({}).expect(503);
    expect(refused.body).toMatchObject({ status: 503, type: `${app.config.baseUrl}/problems/rate-limit-unavailable` });
    expect(refused.headers['retry-after']).toBe('5');
    await request(app.url).get('/auth/github/login').expect(503);
    await request(app.url).get('/health/ready').expect(200);
  });
});

// Instances share counters only through Redis: CI's PostgreSQL run sets REDIS_URL.
(process.env.REDIS_URL ? describe : describe.skip)('rate limits shared through Redis by two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    await setLimits(a, { 'ratelimit.public_read_per_min': 3 });
    b = await startTestApp({}, a.testDatabase);
    freezeClock(a);
    freezeClock(b);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('counts a client once across both, so the excess is refused by either', async () => {
    const get = (app: TestApp) => request(app.url).get('/api/plugins').set('X-Forwarded-For', '198.51.100.20');
    await get(a).expect(200);
    await get(b).expect(200);
    await get(a).expect(200);
    const refused = await get(b).expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await get(a).expect(429);
  });
});
