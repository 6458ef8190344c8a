import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('admin signing-key routes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('lists and rotates keys for admins only, auditing the rotation', async () => {
    const user = await userWithSession(app, 'not-admin');
    const admin = await userWithSession(app, 'key-admin', 'admin');
    await request(app.url).get('/api/admin/keys').expect(401);
    await request(app.url).get('/api/admin/keys').set('Authorization', `Bearer ${user.jwt}`).expect(403);
    await request(app.url).post('/api/admin/keys/rotate').set('Authorization', `Bearer ${user.jwt}`).expect(403);

    const before = await request(app.url).get('/api/admin/keys').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    const first = before.body.keys.find((k: { state: string }) => k.state === 'current').kid;
    const rotated = await request(app.url).post('/api/admin/keys/rotate').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    expect(rotated.body).toEqual({
      kid: expect.any(String),
      previousKid: first,
      drainingKid: null,
      retiredKids: [],
      pending: 0,
      stillDraining: [],
    });
    expect(rotated.headers['cache-control']).toBe('no-store');

    const set = await request(app.url).get('/.well-known/registry-key.json').expect(200);
    expect(set.body.keys.map((k: { kid: string }) => k.kid)).toEqual([rotated.body.kid, first]);

    const audit = await request(app.url).get('/api/admin/audit?action=key.rotate').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0].actor.userId).toBe(admin.user.id);
  });
});
