/**
 * Redis dies under load and comes back: the catalogue keeps answering from the database, rate
 * limits fail open for reads and closed for publish, nothing crashes, the log says so a bounded
 * number of times, and once Redis is back the response cache is used again.
 */
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { captureLog } from '../support/log-capture';
import { ScratchRedis, scratchRedisUnavailable } from '../support/scratch-redis';
import { startTestApp, type TestApp } from '../support/test-app';

const skipReason = !process.env.DATABASE_URL
  ? "runs in the DATABASE_URL pass only (with the machine's services)"
  : scratchRedisUnavailable();
const describeWithRedis = skipReason ? describe.skip : describe;
if (skipReason) console.info(`redis-restart tests skipped: ${skipReason}`);

const DEADLINE_MS = 30_000;

describeWithRedis('Redis killed under load', () => {
  const { stream, lines } = captureLog();
  let redis: ScratchRedis;
  let app: TestApp;

  const catalogue = () => request(app.url).get('/api/plugins');
  const untilCacheHit = async (what: string) => {
    const until = Date.now() + DEADLINE_MS;
    while ((await catalogue()).headers['x-cache'] !== 'hit') {
      if (Date.now() > until) throw new Error(`no cache hit within 30 s ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const publishRefusal = () => request(app.url).post('/api/publish/some-plugin').set('Authorization', 'Bearer not-a-token').send({});

  beforeAll(async () => {
    redis = await ScratchRedis.start();
    app = await startTestApp(
      { REDIS_URL: redis.url, RESPONSE_CACHE_TTL_S: '30', LOG_LEVEL: 'warn' },
      undefined,
      createLogger('warn', stream),
    );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await redis?.remove();
  });

  it('serves reads from the database, refuses publish, and uses the cache again once Redis is back', async () => {
    await untilCacheHit('with Redis up');
    expect((await redis.keys('*responses*')).length).toBeGreaterThan(0);

    await redis.kill();
    const whileDown = await Promise.all(Array.from({ length: 20 }, () => catalogue()));
    for (const res of whileDown) {
      expect(res.status).toBe(200);
      expect(res.headers['x-cache']).not.toBe('hit');
    }
    const refused = await publishRefusal().expect(503);
    expect(refused.body).toMatchObject({ status: 503, type: `${app.config.baseUrl}/problems/rate-limit-unavailable` });
    await request(app.url).get('/health/ready').expect(200);

    await redis.start();
    await untilCacheHit('after Redis came back');
    // Metered again: the bogus token reaches the token check instead of the fail-closed refusal.
    await publishRefusal().expect(401);

    const redisWarnings = lines.filter((line) => /response cache|rate-limit counters/.test(line));
    expect(redisWarnings.length).toBeGreaterThan(0);
    // Once a minute per component, not once a request (about 25 requests met a dead Redis).
    expect(redisWarnings.length).toBeLessThan(10);
  });
});
