/**
 * The web pages render from this instance's own API over loopback (docs/operating.md#rate-limits).
 * Those calls carry a per-process key, so the rate limiter counts the visitor's page view once and
 * not the API calls behind it; a forged key is metered like any other request.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { INTERNAL_CALL_HEADER } from '../../src/common/http/internal-calls';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('web pages and the rate limiter', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    // A frozen clock: no minute window can turn over inside the test.
    const now = new Date();
    jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => now);
    const admin = await userWithSession(app, 'limits-admin', 'admin');
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.public_read_per_min': 3 })
      .expect(200);
  });
  afterAll(() => app?.close());

  it('meters a page view once although it makes several API calls from 127.0.0.1', async () => {
    // Same address as the pages' own calls: were those metered, the first view would use up the limit.
    for (let i = 0; i < 3; i++) {
      const page = await request(app.url).get('/plugins').expect(200);
      expect(page.text).toContain('<form');
    }
    const refused = await request(app.url).get('/').expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('meters a request that presents a forged internal key', async () => {
    const forged = (test: request.Test) => test.set('X-Forwarded-For', '198.51.100.40').set(INTERNAL_CALL_HEADER, 'not-the-key');
    for (let i = 0; i < 3; i++) await forged(request(app.url).get('/api/plugins')).expect(200);
    await forged(request(app.url).get('/api/plugins')).expect(429);
  });
});
