import { createHash } from 'node:crypto';
import request from 'supertest';
import { assetChunks, FakeForge } from '../support/fake-forge';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('foundation over HTTP', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers liveness and readiness', async () => {
    await request(app.url).get('/health/live').expect(200, { status: 'ok' });
    const ready = await request(app.url).get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok', database: 'up', migrations: 'applied' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('serves the OpenAPI document and a Swagger UI whose assets are local', async () => {
    const json = await request(app.url).get('/openapi/json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(Object.keys(json.body.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    expect(json.body.components.schemas.ProblemDto).toBeDefined();
    const html = await request(app.url).get('/openapi').expect(200);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    const scripts = [...html.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^https?:/);
      await request(app.url)
        .get(`/openapi/${src.replace(/^\.\/(openapi\/)?/, '')}`)
        .expect(200);
    }
  });

  it('answers unknown routes 404 as problem+json', async () => {
    const res = await request(app.url).get('/no/such/thing').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: `${app.config.baseUrl}/problems/not-found`,
      title: 'Not Found',
      status: 404,
      detail: 'no such resource',
    });
  });

  it('answers a wrong method on a known path 405 with Allow, not 404', async () => {
    const res = await request(app.url).delete('/health/ready').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.status).toBe(405);
  });

  it('answers malformed JSON 400 without echoing parser internals', async () => {
    const res = await request(app.url).post('/health/live').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, detail: 'the request body is not valid JSON' });
    expect(JSON.stringify(res.body)).not.toMatch(/Unexpected|position|at /);
  });

  it('tags every response with a request id, keeping a sane one the client sent', async () => {
    const given = await request(app.url).get('/health/live').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await request(app.url).get('/health/live').set('X-Request-Id', 'bad id with spaces');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('readiness follows the database', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    let target;
    let embeddedOwner: { stop(): Promise<void> } | null = null;
    if (db.kind === 'postgres') {
      const url = new URL(db.env.DATABASE_URL);
      target = { host: url.hostname, port: Number(url.port || 5432) };
      proxy = new TcpProxy(target);
      const port = await proxy.start();
      url.host = `127.0.0.1:${port}`;
      app = await startTestApp({ DATABASE_URL: url.toString() }, db);
    } else {
      // The embedded engine stays up; the app reaches it through the proxy like a server.
      const { openEmbeddedDatabase } = await import('../../src/database/embedded/embedded-postgres');
      const embedded = await openEmbeddedDatabase({ dataDir: db.dataDir, mode: 'own' });
      embeddedOwner = embedded;
      proxy = new TcpProxy({ path: `${embedded.target.host}/.s.PGSQL.${embedded.target.port}` });
      const port = await proxy.start();
      app = await startTestApp({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` }, db);
    }
    const stopOwner = embeddedOwner;
    const closeApp = app.close.bind(app);
    app.close = async () => {
      await closeApp();
      await stopOwner?.stop();
    };
  });

  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await db?.drop();
  });

  it('turns 503 while the database is unreachable and 200 again when it is back, without crashing', async () => {
    await request(app.url).get('/health/ready').expect(200);

    await proxy.stop();
    const down = await request(app.url).get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', database: 'down' });
    await request(app.url).get('/health/live').expect(200);

    await proxy.start();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await request(app.url).get('/health/ready')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });
});

describe('fake forge', () => {
  it('serves assets of a chosen size and deterministic content', async () => {
    const forge = await new FakeForge().start();
    try {
      const url = forge.asset('/dl/a.bin', { size: 200_000, seed: 7 });
      const res = await fetch(url);
      const bytes = Buffer.from(await res.arrayBuffer());
      const expected = createHash('sha256');
      for (const chunk of assetChunks({ size: 200_000, seed: 7 })) expected.update(chunk);
      expect(bytes.length).toBe(200_000);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected.digest('hex'));
      expect(forge.requests).toHaveLength(1);
    } finally {
      await forge.stop();
    }
  });
});
