/**
 * The catalogue's response cache, over HTTP: an answer is stored on its second ask, anonymous
 * reads are answered from it (the same bytes and ETag, 304 to If-None-Match), every write empties it before its answer goes out, a
 * signed-in caller is never served from it, and with Redis a second instance sees the first
 * one's writes at once.
 */
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

function pushBody(w: PublishWorld, slug: string, version: string) {
  const url = w.forge.asset(`/acme/${slug}/releases/download/${version}/${slug}.zip`, { size: 1_000, seed: version.length });
  return {
    manifest: manifestYaml({ name: slug, version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  };
}

const slugsOf = (res: request.Response) => res.body.plugins.map((p: { slug: string }) => p.slug);

describe('response cache', () => {
  let w: PublishWorld;
  let token: string;
  let admin: string;

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('author', ['publish:*', 'yank:*'])).token;
    admin = (await userWithSession(w.app, 'root', 'admin')).jwt;
    await w.push(token, 'alpha', pushBody(w, 'alpha', '1.0.0')).expect(201);
  });
  afterAll(() => w?.close());

  const get = (path: string) => request(w.app.url).get(path);

  it('stores an answer on its second ask, not its first (a read asked once costs the cache nothing)', async () => {
    const asks = [];
    for (let i = 0; i < 3; i++) asks.push((await get('/api/plugins?sort=name&limit=7').expect(200)).headers['x-cache']);
    expect(asks).toEqual(['miss', 'miss', 'hit']);
  });

  it('answers a repeated read from the cache with the same bytes and ETag, and 304 to If-None-Match', async () => {
    await get('/api/plugins?limit=5&sort=name').expect(200);
    const first = await get('/api/plugins?sort=name&limit=5').expect(200);
    const second = await get('/api/plugins?limit=5&sort=name').expect(200);
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['cache-control']).toBe(first.headers['cache-control']);
    const revalidated = await get('/api/plugins?sort=name&limit=5').set('If-None-Match', first.headers.etag).expect(304);
    expect(revalidated.headers['x-cache']).toBe('hit');
    expect(revalidated.text).toBe('');
  });

  it('serves detail, latest and a release from it too, and a miss revalidates to 304 as well', async () => {
    for (const path of [
      '/api/plugins/alpha',
      '/api/plugins/alpha/latest',
      '/api/plugins/alpha/releases/1.0.0',
      '/api/plugins/alpha/releases/latest',
    ]) {
      await get(path).expect(200);
      const first = await get(path).expect(200);
      expect(first.headers.etag).toBeDefined();
      const second = await get(path).set('If-None-Match', first.headers.etag).expect(304);
      expect(second.headers['x-cache']).toBe('hit');
    }
  });

  it('shows a publish at once: the next read after the push answers misses and has it', async () => {
    for (let i = 0; i < 2; i++) await get('/api/plugins').expect(200);
    expect((await get('/api/plugins').expect(200)).headers['x-cache']).toBe('hit');
    await w.push(token, 'beta', pushBody(w, 'beta', '1.0.0')).expect(201);
    const after = await get('/api/plugins').expect(200);
    expect(after.headers['x-cache']).toBe('miss');
    expect(slugsOf(after)).toContain('beta');
  });

  it('shows a yank, an admin verification and a new version at once', async () => {
    await w.push(token, 'alpha', pushBody(w, 'alpha', '1.1.0')).expect(201);
    for (let i = 0; i < 2; i++) expect((await get('/api/plugins/alpha/latest').expect(200)).body.version).toBe('1.1.0');
    expect((await get('/api/plugins/alpha/latest').expect(200)).headers['x-cache']).toBe('hit');
    await request(w.app.url).post('/api/publish/alpha/yank').set('Authorization', `Bearer ${token}`).send({ version: '1.1.0' }).expect(200);
    expect((await get('/api/plugins/alpha/latest').expect(200)).body.version).toBe('1.0.0');

    expect((await get('/api/plugins?verified=1').expect(200)).body.plugins).toEqual([]);
    await request(w.app.url).post('/api/admin/plugins/alpha/verify').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(slugsOf(await get('/api/plugins?verified=1').expect(200))).toEqual(['alpha']);
  });

  it('never serves or stores the answer to a signed-in caller, nor an error', async () => {
    const signedIn = await get('/api/plugins/alpha').set('Authorization', `Bearer ${admin}`).expect(200);
    expect(signedIn.headers['x-cache']).toBeUndefined();
    expect(signedIn.body.verifiedBy).toBeDefined();
    const anonymous = await get('/api/plugins/alpha').expect(200);
    expect(anonymous.body).not.toHaveProperty('verifiedBy');

    for (let i = 0; i < 2; i++) {
      const bad = await get('/api/plugins?limit=101').expect(400);
      expect(bad.headers['x-cache']).toBe('miss');
    }
    for (let i = 0; i < 2; i++) expect((await get('/api/plugins/nobody-here').expect(404)).headers['x-cache']).toBe('miss');
  });

  it('keys /latest by the platform the User-Agent names', async () => {
    const linux = await get('/api/plugins/alpha/latest').set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)').expect(200);
    await get('/api/plugins/alpha/latest').set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)').expect(200);
    const mac = await get('/api/plugins/alpha/latest').set('User-Agent', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)').expect(200);
    expect(mac.headers['x-cache']).toBe('miss');
    expect(
      (await get('/api/plugins/alpha/latest').set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:1)').expect(200)).headers['x-cache'],
    ).toBe('hit');
    expect(linux.body.version).toBe(mac.body.version);
  });

  it('is off with RESPONSE_CACHE_TTL_S=0', async () => {
    const plain = await startTestApp({ RESPONSE_CACHE_TTL_S: '0' });
    try {
      await request(plain.url).get('/api/plugins').expect(200);
      const again = await request(plain.url).get('/api/plugins').expect(200);
      expect(again.headers['x-cache']).toBeUndefined();
      expect(again.headers.etag).toBeDefined();
    } finally {
      await plain.close();
    }
  });
});

describe('response cache hits in the access log', () => {
  it('logs a hit as one compact access line with its request id, and a miss as the full line', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const app = await startTestApp({}, undefined, createLogger('info', stream));
    try {
      await request(app.url).get('/api/plugins?sort=new').set('X-Request-Id', 'first-read').expect(200);
      await request(app.url).get('/api/plugins?sort=new').set('X-Request-Id', 'stored-read').expect(200);
      await request(app.url).get('/api/plugins?sort=new').set('X-Request-Id', 'second-read').expect(200);
      const access = (id: string) => lines.filter((line) => (line.req as { id?: string } | undefined)?.id === id);
      expect(access('first-read')).toEqual([
        expect.objectContaining({ msg: 'request completed', res: expect.objectContaining({ statusCode: 200 }) }),
      ]);
      expect(access('first-read')[0]).not.toHaveProperty('cache');
      expect(access('second-read')).toEqual([
        expect.objectContaining({
          level: 'info',
          msg: 'request completed',
          cache: 'hit',
          req: { id: 'second-read', method: 'GET', url: '/api/plugins?sort=new' },
          res: { statusCode: 200, length: expect.any(Number) },
          responseTime: expect.any(Number),
        }),
      ]);
    } finally {
      await app.close();
    }
  });
});

// Two instances share answers only through Redis: CI's PostgreSQL run sets REDIS_URL.
(process.env.REDIS_URL ? describe : describe.skip)('response cache shared through Redis by two instances', () => {
  let w: PublishWorld;
  let second: TestApp;
  let token: string;

  beforeAll(async () => {
    w = await publishWorld();
    second = await startTestApp(
      { FETCH_ALLOW_HOSTS: w.app.config.fetchAllowHosts.join(','), FORGES: JSON.stringify(w.app.config.forges) },
      w.app.testDatabase,
    );
    token = (await w.tokenFor('author', ['publish:*'])).token;
  });
  afterAll(async () => {
    await second?.close();
    await w?.close();
  });

  it("serves one instance's stored answer from the other, and retires it on a write through either", async () => {
    await request(w.app.url).get('/api/plugins').expect(200);
    const first = await request(w.app.url).get('/api/plugins').expect(200);
    expect(first.headers['x-cache']).toBe('miss');
    const shared = await request(second.url).get('/api/plugins').expect(200);
    expect(shared.headers['x-cache']).toBe('hit');
    expect(shared.text).toBe(first.text);

    await w.push(token, 'gamma', pushBody(w, 'gamma', '1.0.0')).expect(201);
    const seen = await request(second.url).get('/api/plugins').expect(200);
    expect(seen.headers['x-cache']).toBe('miss');
    expect(slugsOf(seen)).toEqual(['gamma']);
  });

  it('keeps registries that share one Redis apart', async () => {
    const other = await startTestApp();
    try {
      await request(w.app.url).get('/api/plugins?sort=new').expect(200);
      const elsewhere = await request(other.url).get('/api/plugins?sort=new').expect(200);
      expect(elsewhere.headers['x-cache']).toBe('miss');
      expect(elsewhere.body.plugins).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
