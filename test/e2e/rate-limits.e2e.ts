/**
 * Rate limits over HTTP (docs/decisions.md#wishlist-pages-site-settings-and-rate-limits): per IP on
 * reads, webhooks, sign-in and the wizard, per verified publisher token on publish (per IP until
 * the token verifies); 429 problem+json with Retry-After; limits are settings; the client address
 * comes from X-Forwarded-For only from trusted proxies; with Redis down reads go on and publish is
 * refused; two instances on one Redis share each counter. Each app's clock is frozen, so no window
 * boundary can fall inside a test.
 */
import { randomBytes } from 'node:crypto';
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
    await setLimits(app, {
      'ratelimit.public_read_per_min': 3,
      'ratelimit.publish_per_min': 2,
      'ratelimit.webhook_per_min': 2,
      'ratelimit.signin_per_min': 2,
    });
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

  it('counts a catalogue read once when the catalogue lane hands it to the controllers (a 404, a 400) or answers it itself', async () => {
    // The lane meters ahead of Express; what it hands over carries its decision along.
    await from('198.51.100.3', request(app.url).get('/api/plugins/no-such-plugin')).expect(404);
    await from('198.51.100.3', request(app.url).get('/api/plugins?limit=1000')).expect(400);
    await from('198.51.100.3', request(app.url).head('/api/plugins')).expect(200);
    const refused = await from('198.51.100.3', request(app.url).get('/api/plugins/no-such-plugin')).expect(429);
    expect(refused.body).toMatchObject({ status: 429, type: `${app.config.baseUrl}/problems/rate-limited` });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts a changes-feed read once, answered on the lane or handed to the controller (a 400)', async () => {
    await from('198.51.100.5', request(app.url).get('/api/changes?limit=1')).expect(200);
    await from('198.51.100.5', request(app.url).get('/api/changes?limit=0')).expect(400);
    await from('198.51.100.5', request(app.url).head('/api/changes')).expect(200);
    const refused = await from('198.51.100.5', request(app.url).get('/api/changes')).expect(429);
    expect(refused.body).toMatchObject({ status: 429, type: `${app.config.baseUrl}/problems/rate-limited` });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts publish per address until the token verifies: fresh random bearers buy nothing, a verified token has its own bucket', async () => {
    const rows = async () => ({
      audit: Number((await app.database.dataSource.query('SELECT count(*)::int AS n FROM audit_entry'))[0].n),
      plugins: Number((await app.database.dataSource.query('SELECT count(*)::int AS n FROM plugin'))[0].n),
    });
    const randomToken = () =>
      `prt_${randomBytes(30)
        .toString('base64')
        .replace(/[^0-9A-Za-z]/g, '')
        .padEnd(40, 'x')
        .slice(0, 40)}`;
    const push = (ip: string, token?: string) => {
      const req = from(ip, request(app.url).post('/api/publish/alpha')).send({});
      return token ? req.set('Authorization', `Bearer ${token}`) : req;
    };
    const owner = await userWithSession(app, 'limited-publisher');
    const created = await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Authorization', `Bearer ${owner.jwt}`)
      .send({ name: 'ci', scopes: ['publish:*'] })
      .expect(201);
    const token: string = created.body.token;

    // The token verifies once from its CI address: the guard passes it (400: the empty body).
    await push('198.51.100.30', token).expect(400);

    // A flood from another address, a fresh token every time: 401 up to the address's limit, then 429.
    const flooder = '198.51.100.31';
    await push(flooder, randomToken()).expect(401);
    await push(flooder, randomToken()).expect(401);
    const before = await rows();
    for (let i = 0; i < 5; i++) {
      const refused = await push(flooder, randomToken()).expect(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 429, type: `${app.config.baseUrl}/problems/rate-limited` });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    }
    await push(flooder, 'not-even-a-publisher-token').expect(429);
    await push(flooder).expect(429);
    // Refused before the token was looked at: nothing audited, nothing created.
    expect(await rows()).toEqual(before);
    expect(before.plugins).toBe(0);

    // The verified token keeps its own bucket, even from the flooded address, until it spends it.
    await push(flooder, token).expect(400);
    const spent = await push('198.51.100.30', token).expect(429);
    expect(spent.headers['retry-after']).toBeDefined();
    // Its address was given back what the token's first request took.
    await push('198.51.100.30', randomToken()).expect(401);
    await push('198.51.100.30', randomToken()).expect(401);
    await push('198.51.100.30', randomToken()).expect(429);
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

  it('counts an IPv6 client by its /64: other addresses in it share the limit, another /64 has its own', async () => {
    // Lane answers and Express answers alike (a plugin that does not exist is a 404 from the controller).
    await from('2001:db8:7:1::1', request(app.url).get('/api/plugins')).expect(200);
    await from('2001:db8:7:1:ffff:ffff:ffff:fffe', request(app.url).get('/api/plugins/no-such-plugin')).expect(404);
    await from('2001:0DB8:0007:0001:0000:0000:0000:0003', request(app.url).get('/api/changes')).expect(200);
    const refused = await from('2001:db8:7:1:a:b:c:d', request(app.url).get('/api/plugins')).expect(429);
    expect(refused.body).toMatchObject({ status: 429, type: `${app.config.baseUrl}/problems/rate-limited` });
    await from('2001:db8:7:2::1', request(app.url).get('/api/plugins')).expect(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 client, and IPv4 clients one by one', async () => {
    await from('198.51.100.40', request(app.url).get('/api/plugins')).expect(200);
    await from('::ffff:198.51.100.40', request(app.url).get('/api/plugins')).expect(200);
    await from('::ffff:c633:6428', request(app.url).get('/api/plugins')).expect(200);
    await from('198.51.100.40', request(app.url).get('/api/plugins')).expect(429);
    await from('198.51.100.41', request(app.url).get('/api/plugins')).expect(200);
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

  it('fails open for reads and closed for publish, sign-in, the wizard and signed-in actions (503 with Retry-After)', async () => {
    await request(app.url).get('/api/plugins').expect(200);
    await request(app.url).get('/api/plugins').expect(200);
    const refused = await request(app.url).post('/api/publish/alpha').set('Authorization', 'Bearer whatever').send({}).expect(503);
    expect(refused.body).toMatchObject({ status: 503, type: `${app.config.baseUrl}/problems/rate-limit-unavailable` });
    expect(refused.headers['retry-after']).toBe('5');
    await request(app.url).get('/auth/github/login').expect(503);
    const { jwt } = await userWithSession(app, 'no-counters');
    const wish = await request(app.url)
      .post('/api/requests')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ title: 'Unmetered?' })
      .expect(503);
    expect(wish.body).toMatchObject({ status: 503, type: `${app.config.baseUrl}/problems/rate-limit-unavailable` });
    expect(wish.headers['retry-after']).toBe('5');
    expect(Number((await app.database.dataSource.query('SELECT count(*)::int AS n FROM plugin_request'))[0].n)).toBe(0);
    await request(app.url).get('/health/ready').expect(200);
  });
});

// Instances share counters only through Redis: CI's PostgreSQL run sets REDIS_URL.
(process.env.REDIS_URL ? describe : describe.skip)('rate limits shared through Redis by two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    await setLimits(a, { 'ratelimit.public_read_per_min': 3, 'ratelimit.publish_per_min': 2 });
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

  it('counts a flood of fresh bearer tokens once across both, against the address', async () => {
    const push = (app: TestApp, i: number) =>
      request(app.url)
        .post('/api/publish/alpha')
        .set('X-Forwarded-For', '198.51.100.21')
        .set('Authorization', `Bearer prt_${String(i).padStart(40, '0')}`)
        .send({});
    await push(a, 1).expect(401);
    await push(b, 2).expect(401);
    const refused = await push(a, 3).expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await push(b, 4).expect(429);
  });
});
