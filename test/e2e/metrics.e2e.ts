/**
 * GET /metrics (docs/operating.md#metrics): Prometheus text format with HTTP latency by route
 * template and status, ingest durations and outcomes, webhook queue depth, response-cache hits and
 * misses and the database pool; loopback only by default, a bearer token with METRICS_TOKEN.
 */
import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Every sample line of the exposition is `name{labels} value`; comments are HELP and TYPE. Values
 * are Go floats, so NaN and Inf in any case (prom-client writes `Nan` for an empty summary).
 */
function expectExpositionFormat(text: string): void {
  const sample =
    /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|[nN][aA][nN]|[+-][iI][nN][fF])$/;
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    expect({ line, ok: sample.test(line) }).toEqual({ line, ok: true });
  }
}

function sampleValue(text: string, prefix: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${prefix} `));
  return line ? Number(line.slice(prefix.length + 1)) : null;
}

describe('GET /metrics', () => {
  let w: PublishWorld;
  let token: string;
  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('author', ['publish:*'])).token;
  });
  afterAll(() => w?.close());

  const scrape = async () => {
    const res = await request(w.app.url).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;/);
    expect(res.headers['content-type']).toContain('version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    expectExpositionFormat(res.text);
    return res.text;
  };

  it('times requests by route template and status, and counts cache hits and misses', async () => {
    await request(w.app.url).get('/api/plugins/no-such-plugin').expect(404);
    // Stored on its second ask: the third is the hit.
    for (let i = 0; i < 3; i++) await request(w.app.url).get('/api/plugins?limit=7').expect(200);
    const text = await scrape();
    expect(text).toContain('# TYPE registry_http_request_duration_seconds histogram');
    expect(sampleValue(text, 'registry_http_request_duration_seconds_count{method="GET",route="/api/plugins/:slug",status="404"}')).toBe(1);
    // The hit was answered before routing and is still labelled by its template.
    expect(sampleValue(text, 'registry_http_request_duration_seconds_count{method="GET",route="/api/plugins",status="200"}')).toBe(3);
    expect(sampleValue(text, 'registry_response_cache_requests_total{result="hit"}')).toBe(1);
    // A lookup that found nothing is a miss, whatever the route then answered (the 404 too).
    expect(sampleValue(text, 'registry_response_cache_requests_total{result="miss"}')).toBe(3);
    expect(text).not.toContain('no-such-plugin');
  });

  it('records ingest durations by source and outcome', async () => {
    const url = w.forge.asset('/acme/metered/releases/download/1.0.0/metered.zip', { size: 1_000, seed: 3 });
    const body = {
      manifest: manifestYaml({ name: 'metered', version: '1.0.0' }),
      manifestSource: 'plugin.yaml',
      version: '1.0.0',
      assets: [{ name: 'metered.zip', url }],
      repoUrl: `${w.forge.url}/acme/metered`,
    };
    await w.push(token, 'metered', body).expect(201);
    await w.push(token, 'metered', { ...body, version: '1.0.1' }).expect(422);
    const text = await scrape();
    expect(sampleValue(text, 'registry_ingest_duration_seconds_count{source="push",outcome="published"}')).toBe(1);
    expect(sampleValue(text, 'registry_ingest_duration_seconds_count{source="push",outcome="rejected"}')).toBe(1);
  });

  it('reports the webhook queue depth, the database pool and the process', async () => {
    const text = await scrape();
    expect(sampleValue(text, 'registry_webhook_deliveries{status="queued"}')).toBe(0);
    expect(sampleValue(text, 'registry_webhook_deliveries{status="processing"}')).toBe(0);
    expect(sampleValue(text, 'registry_db_pool_connections{state="max"}')).toBeGreaterThan(0);
    // Background workers may hold or want a connection at that moment: present, not a fixed number.
    expect(sampleValue(text, 'registry_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('registry_process_resident_memory_bytes');
  });

  it('answers loopback callers only, and never one forwarded by a proxy', async () => {
    const res = await request(w.app.url).get('/metrics').set('X-Forwarded-For', '203.0.113.1').expect(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toContain('registry_http');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let app: TestApp;
  const secret = 'metrics-token-0123456789';
  beforeAll(async () => {
    app = await startTestApp({ METRICS_TOKEN: secret });
  });
  afterAll(() => app?.close());

  it('needs the bearer token, from anywhere', async () => {
    await request(app.url).get('/metrics').expect(401);
    await request(app.url).get('/metrics').set('Authorization', 'Bearer metrics-token-wrong-guess').expect(401);
    const res = await request(app.url)
      .get('/metrics')
      .set('Authorization', `Bearer ${secret}`)
      .set('X-Forwarded-For', '203.0.113.1')
      .expect(200);
    expect(res.text).toContain('# TYPE registry_http_request_duration_seconds histogram');
  });
});
