import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('install wizard under concurrency', () => {
  const INIT_TOKEN = 'bootstrap-token-for-concurrency-01';
  let app: TestApp;

  beforeEach(async () => {
    app = await startTestApp({ INIT_TOKEN });
  });
  afterEach(() => app?.close());

  it('of 10 concurrent POST /api/init/admin with the right token, one gets 201 and the other nine 410', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(app.url)
          .post('/api/init/admin')
          .set('Authorization', `Bearer ${INIT_TOKEN}`)
          .send({ login: `root${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 410, 410, 410, 410, 410, 410, 410, 410, 410]);
    for (const loser of results.filter((r) => r.status === 410)) {
      expect(loser.headers['content-type']).toMatch(/problem\+json/);
    }
    const admins = await app.database.dataSource.query(`SELECT login FROM user_account WHERE role = 'admin'`);
    expect(admins).toHaveLength(1);
  });

  it('answers 410, never 401, to settings calls still in flight when the admin is created', async () => {
    const calls = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? request(app.url)
            .post('/api/init/admin')
            .set('Authorization', `Bearer ${INIT_TOKEN}`)
            .send({ login: `root${i}` })
        : request(app.url)
            .put('/api/init/settings')
            .set('Authorization', `Bearer ${INIT_TOKEN}`)
            .send({ siteName: `Site ${i}` }),
    );
    const results = await Promise.all(calls);
    const admins = results.filter((r, i) => i % 2 === 0 && r.status === 201);
    expect(admins).toHaveLength(1);
    for (const [i, r] of results.entries()) {
      // Settings written before the admin existed succeed; everything after is 410.
      if (i % 2 === 0) expect([201, 410]).toContain(r.status);
      else expect([200, 410]).toContain(r.status);
    }
    // Once closed, closed is all anyone hears: also with a wrong or missing token.
    await request(app.url)
      .put('/api/init/settings')
      .set('Authorization', 'Bearer wrong-token-wrong-token')
      .send({ siteName: 'x' })
      .expect(410);
    await request(app.url).post('/api/init/admin').send({ login: 'late' }).expect(410);
  });
});

describe('install wizard once closed: 410 whatever the body', () => {
  const INIT_TOKEN = 'bootstrap-token-for-closed-body-01';
  let app: TestApp;

  /** [what, content type or null for none, raw body] */
  const BODIES: [string, string | null, string][] = [
    ['malformed JSON', 'application/json', '{"login": "late",'],
    ['a JSON string', 'application/json', '"late"'],
    ['a JSON array', 'application/json', '[{"login": "late"}]'],
    ['null', 'application/json', 'null'],
    ['an empty object', 'application/json', '{}'],
    ['wrong field types', 'application/json', '{"login": 42, "email": [], "siteName": {"a": 1}}'],
    ['unknown fields', 'application/json', '{"login": "late", "role": "admin", "baseUrl": "https://x.test"}'],
    ['a valid body', 'application/json', '{"login": "late"}'],
    ['no body', null, ''],
    ['a form body', 'application/x-www-form-urlencoded', 'login=late'],
    ['text', 'text/plain', 'login'],
    ['a body over the 64 KiB limit', 'application/json', JSON.stringify({ login: 'x'.repeat(70_000) })],
  ];
  const ROUTES: ['post' | 'put', string][] = [
    ['post', '/api/init/admin'],
    ['put', '/api/init/settings'],
  ];
  const send = (base: string, method: 'post' | 'put', path: string, contentType: string | null, body: string, token?: string) => {
    const call = request(base)[method](path);
    if (token) call.set('Authorization', `Bearer ${token}`);
    if (contentType) call.set('Content-Type', contentType);
    return body ? call.send(body) : call;
  };

  beforeAll(async () => {
    app = await startTestApp({ INIT_TOKEN });
  });
  afterAll(() => app?.close());

  it('reads and validates bodies while open: 400 for malformed JSON, a wrong type or an array, 413 past the limit', async () => {
    await send(app.url, 'post', '/api/init/admin', 'application/json', '{"login": "late",', INIT_TOKEN).expect(400);
    await send(app.url, 'post', '/api/init/admin', 'application/json', '{"login": 42}', INIT_TOKEN).expect(400);
    await send(app.url, 'post', '/api/init/admin', 'application/json', '[{"login": "x"}]', INIT_TOKEN).expect(400);
    await send(app.url, 'put', '/api/init/settings', 'text/plain', 'x', INIT_TOKEN).expect(415);
    await send(app.url, 'post', '/api/init/admin', 'application/json', JSON.stringify({ login: 'x'.repeat(70_000) }), INIT_TOKEN).expect(
      413,
    );
    expect(await app.database.dataSource.query('SELECT 1 FROM user_account')).toHaveLength(0);
  });

  it.each(ROUTES)('%s %s answers 410 problem+json to every body, token or not, and writes nothing', async (method, path) => {
    await request(app.url)
      .post('/api/init/admin')
      .set('Authorization', `Bearer ${INIT_TOKEN}`)
      .send({ login: 'root' })
      .then((r) => expect([201, 410]).toContain(r.status));
    const before = await app.database.dataSource.query(
      'SELECT (SELECT count(*)::int FROM user_account) AS users, (SELECT count(*)::int FROM audit_entry) AS audits, (SELECT count(*)::int FROM app_setting) AS settings',
    );
    for (const [what, contentType, body] of BODIES) {
      for (const token of [INIT_TOKEN, undefined]) {
        const res = await send(app.url, method, path, contentType, body, token);
        expect({ what, token: Boolean(token), status: res.status }).toEqual({ what, token: Boolean(token), status: 410 });
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 410, detail: expect.stringContaining('install wizard is closed') });
      }
    }
    const after = await app.database.dataSource.query(
      'SELECT (SELECT count(*)::int FROM user_account) AS users, (SELECT count(*)::int FROM audit_entry) AS audits, (SELECT count(*)::int FROM app_setting) AS settings',
    );
    expect(after).toEqual(before);
  });

  it('answers the same after a restart, while GET /api/init/status still answers', async () => {
    const testDatabase = app.testDatabase;
    await app.app.close();
    await app.database.close();
    app = undefined as unknown as TestApp;
    const restarted = await startTestApp({ INIT_TOKEN: 'a-new-bootstrap-token-0003' }, testDatabase);
    try {
      await request(restarted.url).get('/api/init/status').expect(200, { initialized: true });
      for (const [method, path] of ROUTES) {
        for (const [, contentType, body] of BODIES)
          await send(restarted.url, method, path, contentType, body, 'a-new-bootstrap-token-0003').expect(410);
      }
    } finally {
      await restarted.close();
      await testDatabase.drop();
    }
  });
});

/** The real app, like startTestApp, but logging at info level into `lines`. */
async function startLoggedApp(env: Record<string, string>, lines: string[]) {
  const testDatabase: TestDatabase = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', ...testDatabase.env, ...env });
  const database: DatabaseHandle = await openDatabase(config, { embeddedMode: 'own', migrate: true });
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const app: NestExpressApplication = await createApp({ config, database, logger });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await database.close();
      await testDatabase.drop();
    },
  };
}

describe('install wizard bootstrap token in the logs', () => {
  it('never logs a fixed INIT_TOKEN, only that one is configured', async () => {
    const INIT_TOKEN = 'fixed-bootstrap-token-must-not-leak-42';
    const lines: string[] = [];
    const app = await startLoggedApp({ INIT_TOKEN }, lines);
    try {
      await request(app.url).put('/api/init/settings').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ siteName: 'Acme' }).expect(200);
      await request(app.url).post('/api/init/admin').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ login: 'root' }).expect(201);
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain('install wizard open: use the configured INIT_TOKEN');
    expect(log).not.toContain(INIT_TOKEN);
  });

  it('logs a generated bootstrap token exactly once, and that token opens the wizard', async () => {
    const lines: string[] = [];
    const app = await startLoggedApp({}, lines);
    try {
      const announcements = lines.filter((line) => line.includes('install wizard open'));
      expect(announcements).toHaveLength(1);
      const token = /bootstrap token ([A-Za-z0-9_-]{20,})/.exec(announcements[0])?.[1];
      expect(token).toBeDefined();
      expect(lines.join('').split(token!).length - 1).toBe(1);
      await request(app.url).post('/api/init/admin').set('Authorization', `Bearer ${token}`).send({ login: 'root' }).expect(201);
    } finally {
      await app.close();
    }
  });
});
