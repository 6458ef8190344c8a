/**
 * The HTTP pipeline's defences (docs/api-conventions.md#http-conventions): security headers on
 * every answer (the home page and the bundled Swagger UI still work within the CSP), per-route body
 * limits, request timeouts, keep-alive connections that outlive a proxy's idle timeout.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { RawConnection } from '../support/raw-connection';
import { startTestApp, type TestApp } from '../support/test-app';

describe('HTTP hardening', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('sends helmet headers on pages, API answers, cached answers and problems', async () => {
    // The catalogue thrice: stored on its second ask, its third is a cached answer.
    for (const path of ['/', '/api/plugins', '/api/plugins', '/api/plugins', '/no/such/thing']) {
      const res = await request(app.url).get(path);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // Plain-http BASE_URL: no HSTS and no upgrade of the page's own http resources.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    }
    expect((await request(app.url).get('/api/plugins')).headers['x-cache']).toBe('hit');
  });

  it('keeps the home page and the Swagger UI inside the policy: no inline script (JSON data blocks aside), everything same-origin', async () => {
    const home = await request(app.url).get('/').expect(200);
    expect(home.text).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))/);
    expect(home.headers['content-security-policy']).toMatch(/style-src[^;]*'unsafe-inline'/);
    const ui = await request(app.url).get('/openapi').expect(200);
    expect(ui.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const inlineScripts = [...ui.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/g)];
    expect(inlineScripts).toEqual([]);
    for (const [, src] of ui.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      if (src.startsWith('data:')) continue;
      expect(src).not.toMatch(/^(https?:)?\/\//);
    }
  });

  it('sends HSTS and upgrade-insecure-requests only when BASE_URL is https', async () => {
    const tls = await startTestApp({ BASE_URL: 'https://registry.example' });
    try {
      const res = await request(tls.url).get('/').expect(200);
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await tls.close();
    }
  });

  it('gives publish and webhooks bodies of their size, and everything else a small limit', async () => {
    const big = (bytes: number) => JSON.stringify({ padding: 'x'.repeat(bytes) });
    const tooLarge = await request(app.url)
      .post('/api/auth/me/tokens')
      .set('Content-Type', 'application/json')
      .send(big(70_000))
      .expect(413);
    expect(tooLarge.body).toMatchObject({ status: 413, detail: 'the request body is larger than the 64 KiB limit' });
    // Past the parser (401: no credentials), so the size was accepted.
    await request(app.url).post('/api/publish/alpha').set('Content-Type', 'application/json').send(big(300_000)).expect(401);
    const publishTooLarge = await request(app.url)
      .post('/api/publish/alpha')
      .set('Content-Type', 'application/json')
      .send(big(600_000))
      .expect(413);
    expect(publishTooLarge.body.detail).toBe('the request body is larger than the 512 KiB limit');
    const hook = await request(app.url).post('/api/webhooks/release').set('Content-Type', 'application/json').send(big(1_500_000));
    expect(hook.status).not.toBe(413);
    await request(app.url).post('/api/webhooks/release').set('Content-Type', 'application/json').send(big(2_200_000)).expect(413);
  });

  it('bounds how long a client may take to send its request', () => {
    const server = app.app.getHttpServer() as import('node:http').Server;
    expect(server.requestTimeout).toBe(60_000);
    expect(server.headersTimeout).toBe(15_000);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  it("keeps an idle keep-alive connection past Node's own 5 s and answers on it again", async () => {
    const connection = await RawConnection.open(app.url);
    try {
      const first = await connection.get('/health/live');
      expect(first.status).toBe(200);
      expect(first.headers['keep-alive']).toBe('timeout=65');
      // A proxy that pooled the connection comes back after a pause longer than Node's default.
      await sleep(5_500);
      expect(connection.isOpen).toBe(true);
      expect((await connection.get('/health/live')).status).toBe(200);
    } finally {
      connection.destroy();
    }
  });

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const short = await startTestApp({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
    try {
      const connection = await RawConnection.open(short.url);
      const answer = await connection.get('/health/live');
      const answeredAt = performance.now();
      expect(answer.headers['keep-alive']).toBe('timeout=1');
      const idle = (await connection.closed) - answeredAt;
      // Node 24.6 and later wait a buffer of 1 s on top; either way well short of Node's own 5 s.
      expect(idle).toBeGreaterThanOrEqual(900);
      expect(idle).toBeLessThan(3_000);
    } finally {
      await short.close();
    }
  });
});
