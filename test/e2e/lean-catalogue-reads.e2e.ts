/**
 * The anonymous catalogue reads answered ahead of the router (src/catalogue/plugins/lean-catalogue-reads)
 * against the controllers: the same status, body and headers for every read, the same 304 for a
 * matching ETag; every error and every caller with credentials left to the controllers.
 */
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createLogger } from '../../src/common/logging/logger';
import { STORED_PAGES } from '../../src/catalogue/plugins/plugin-detail.service';
import { PluginPageBuilder } from '../../src/catalogue/plugins/plugin-page-builder';
import { captureLog } from '../support/log-capture';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'etag',
  'content-length',
  'x-cache',
  'content-security-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
  'registry-freshness',
];

interface Seen {
  status: number;
  body: unknown;
  headers: Record<string, string | undefined>;
}

describe('lean catalogue reads', () => {
  let w: PublishWorld;
  const log = captureLog();
  const leanLines = (path: string) =>
    log.lines
      .map((line) => JSON.parse(line) as { lean?: boolean; req?: { url?: string } })
      .filter((entry) => entry.lean === true && entry.req?.url === path);

  /** `GET path`, anonymously (`lean`) or with a header that sends it to the controllers. */
  const read = async (
    path: string,
    via: 'lean' | 'controllers',
    extra: Record<string, string> = {},
    method: 'get' | 'head' = 'get',
  ): Promise<Seen> => {
    let req = request(w.app.url)
      [method](path)
      .set('User-Agent', extra['User-Agent'] ?? 'test-client');
    for (const [name, value] of Object.entries(extra)) req = req.set(name, value);
    // Any Authorization header carries credentials: an anonymous read to the controllers (an
    // unknown token reads as anonymous there).
    if (via === 'controllers') req = req.set('Authorization', 'Bearer not-a-token');
    const res = await req;
    return {
      status: res.status,
      body: method === 'head' ? null : res.body,
      headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers[h]])),
    };
  };

  const publish = (token: string, slug: string, version: string, names: string[], fields: Record<string, unknown> = {}) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, description: `${slug} for the lean reads`, tags: ['lean'], ...fields }),
        manifestSource: 'plugin.yaml',
        version,
        assets: names.map((name) => ({ name, url: w.forge.asset(`/acme/${slug}/${version}/${name}`, { size: 100 + name.length }) })),
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .then((res) =>
        expect({ slug, status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ slug, status: 201, body: null }),
      );

  beforeAll(async () => {
    // No response cache: every read here is a miss, answered by one path or the other.
    w = await publishWorld({ RESPONSE_CACHE_TTL_S: '0' }, {}, createLogger('info', log.stream));
    const { token } = await w.tokenFor('lean-author', ['publish:*', 'yank:*']);
    const all = ['tool-linux-x64.tgz', 'tool-darwin-arm64.zip', 'tool-windows-x64.zip', 'tool.wasm'];
    await publish(token, 'tool', '1.0.0', all);
    await publish(token, 'tool', '1.1.0', all, { min_runtime_version: '>=3.0.0' });
    await publish(token, 'tool', '2.0.0-beta.1', all);
    await publish(token, 'native-only', '1.0.0', ['native-linux-x64.tgz']);
    for (let i = 0; i < 5; i++) await publish(token, `lean-${i}`, '0.1.0', ['x.wasm'], { tags: i % 2 ? ['lean', 'odd'] : ['lean'] });
    // Every page stored, as after the builder's next pass: the lean detail answers from plugin_page.
    await w.app.app.get(PluginPageBuilder).buildMarked();
  });
  afterAll(() => w?.close());

  it.each([
    ['/api/plugins', {}],
    ['/api/plugins?search=lean', {}],
    ['/api/plugins?search=tol', {}],
    ['/api/plugins?sort=name&page=2&limit=3', {}],
    ['/api/plugins?tag=odd&sort=new', {}],
    ['/api/plugins?page=40', {}],
    ['/api/plugins/tool', {}],
    ['/api/plugins/tool?locale=pt-BR', {}],
    ['/api/plugins/%74ool', {}],
    ['/api/plugins/tool/latest?os=linux&arch=x64', {}],
    ['/api/plugins/tool/latest', { 'User-Agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15' }],
    ['/api/plugins/tool/latest?prerelease=1&os=windows&arch=amd64', {}],
    ['/api/plugins/tool/latest?runtime=3.1.0&os=darwin&arch=arm64', {}],
  ] as [string, Record<string, string>][])('%s: answered lean, exactly as the controllers answer it', async (path, extra) => {
    const before = leanLines(path).length;
    const lean = await read(path, 'lean', extra);
    expect(leanLines(path).length).toBe(before + 1);
    const controllers = await read(path, 'controllers', extra);
    expect(leanLines(path).length).toBe(before + 1);
    expect(lean.status).toBe(200);
    expect(lean).toEqual(controllers);
    // HEAD: the same headers, no body; a matching ETag: 304 on both.
    expect(await read(path, 'lean', extra, 'head')).toEqual(await read(path, 'controllers', extra, 'head'));
    const etag = lean.headers.etag!;
    const revalidated = await read(path, 'lean', { ...extra, 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated).toEqual(await read(path, 'controllers', { ...extra, 'If-None-Match': etag }));
  });

  it.each([
    ['/api/plugins/nothing-here', 404],
    ['/api/plugins/Not_A_Slug', 400],
    ['/api/plugins/tool?locale=%21%21', 400],
    ['/api/plugins/tool?bogus=1', 400],
    ['/api/plugins?limit=1000', 400],
    ['/api/plugins?ext.bad%20key=1', 400],
    ['/api/plugins/tool/latest?os=plan9', 400],
    // After the same os and arch were validated (and kept) above: another parameter is still refused.
    ['/api/plugins/tool/latest?os=linux&arch=x64&bogus=1', 400],
    ['/api/plugins/tool/latest?os=linux&arch=x64&os=darwin', 400],
    ['/api/plugins/native-only/latest?os=darwin&arch=arm64', 422],
    ['/api/plugins/tool/latest?runtime=1.0.0&prerelease=0&os=linux&arch=x64', 200],
  ] as [string, number][])('%s: %d, the same answer on both paths', async (path, status) => {
    const lean = await read(path, 'lean');
    const controllers = await read(path, 'controllers');
    expect(lean.status).toBe(status);
    expect(lean).toEqual(controllers);
    if (status !== 200) expect(leanLines(path)).toHaveLength(0);
  });

  it('answers a detail from the stored page while it is current, and reads the page after a write', async () => {
    if (!w.app.app.get<boolean>(STORED_PAGES)) return; // the embedded default reads every page whole
    const database = w.app.app.get(DataSource);
    const [{ body }] = await database.query(
      `SELECT pp.body FROM plugin_page pp JOIN plugin p ON p.id = pp.plugin_id WHERE p.slug = 'lean-3'`,
    );
    // A marked body (the stamp unchanged: nothing wrote the plugin) shows which one answers.
    await database.query(`UPDATE plugin_page SET body = $1 WHERE plugin_id = (SELECT id FROM plugin WHERE slug = 'lean-3')`, [
      JSON.stringify({ ...JSON.parse(body), description: 'from the stored page' }),
    ]);
    expect((await read('/api/plugins/lean-3', 'lean')).body).toMatchObject({ description: 'from the stored page' });
    expect((await read('/api/plugins/lean-3', 'controllers')).body).toMatchObject({ description: 'lean-3 for the lean reads' });
    await database.query(`UPDATE plugin SET featured = true WHERE slug = 'lean-3'`);
    const afterWrite = await read('/api/plugins/lean-3', 'lean');
    expect(afterWrite.body).toMatchObject({ description: 'lean-3 for the lean reads', featured: true });
    expect(afterWrite).toEqual(await read('/api/plugins/lean-3', 'controllers'));
    await w.app.app.get(PluginPageBuilder).buildMarked();
    expect(await read('/api/plugins/lean-3', 'lean')).toEqual(afterWrite);
  });

  it('leaves a signed-in caller to the controllers, whose answer is private', async () => {
    const { jwt } = await w.tokenFor('lean-reader', ['publish:*']);
    const res = await request(w.app.url).get('/api/plugins/tool').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(leanLines('/api/plugins/tool').length).toBeGreaterThan(0);
    const before = leanLines('/api/plugins/tool').length;
    await request(w.app.url).get('/api/plugins/tool').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(leanLines('/api/plugins/tool')).toHaveLength(before);
  });

  it('echoes a sane X-Request-Id and logs its access line under it; gives each request a new one otherwise', async () => {
    const echoed = await request(w.app.url).get('/api/plugins/lean-2').set('X-Request-Id', 'trace-lean-2').expect(200);
    expect(echoed.headers['x-request-id']).toBe('trace-lean-2');
    const line = leanLines('/api/plugins/lean-2').at(-1) as { req?: { id?: string } };
    expect(line.req?.id).toBe('trace-lean-2');
    const [a, b] = await Promise.all([
      request(w.app.url).get('/api/plugins/lean-3'),
      request(w.app.url).get('/api/plugins/lean-3?locale=fr'),
    ]);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    // Handed over to the controllers (a 404), the answer keeps the id the request came with.
    const missing = await request(w.app.url).get('/api/plugins/not-there').set('X-Request-Id', 'trace-missing').expect(404);
    expect(missing.headers['x-request-id']).toBe('trace-missing');
    expect(missing.headers['content-security-policy']).toBeDefined();
    // Without one, the id the lane gave it goes along, and the access line shows only what the client sent.
    const anonymous = await request(w.app.url).get('/api/plugins/not-there-either').expect(404);
    const lines = log.lines.map((line) => JSON.parse(line) as { req?: { id?: string; url?: string; headers?: Record<string, string> } });
    const access = lines.find((entry) => entry.req?.url === '/api/plugins/not-there-either');
    expect(access?.req?.id).toBe(anonymous.headers['x-request-id']);
    expect(access?.req?.headers?.['x-request-id']).toBeUndefined();
  });

  it('labels its answers in the metrics with the route it stands in for', async () => {
    await read('/api/plugins/lean-1', 'lean');
    const metrics = await (await fetch(`${w.app.url}/metrics`)).text();
    expect(metrics).toMatch(/registry_http_request_duration_seconds_count\{[^}]*route="\/api\/plugins\/:slug"[^}]*\}/);
    expect(metrics).not.toMatch(/route="unmatched"[^}]*status="200"/);
  });
});
