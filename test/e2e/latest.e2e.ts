import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

describe('GET /api/plugins/:slug/latest', () => {
  let w: PublishWorld;
  let token: string;
  const get = (path: string, userAgent = 'test-client') => request(w.app.url).get(path).set('User-Agent', userAgent);

  /** A release of `slug` with one asset per file name, served by the fake forge. */
  const publish = (slug: string, version: string, names: string[], fields: Record<string, unknown> = {}) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, ...fields }),
        manifestSource: 'plugin.yaml',
        version,
        assets: names.map((name) => ({ name, url: w.forge.asset(`/acme/${slug}/${version}/${name}`, { size: 100 + name.length }) })),
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('latest-author', ['publish:*', 'yank:*'])).token;
    const all = [
      'tool-linux-x64.tgz',
      'tool-linux-arm64.tgz',
      'tool-darwin-arm64.zip',
      'tool-macos-x64.zip',
      'tool-windows-x64.zip',
      'tool.wasm',
    ];
    await publish('tool', '1.0.0', all);
    await publish('tool', '1.1.0', all, { min_runtime_version: '>=3.0.0' });
    await publish('tool', '1.2.0', all);
    await publish('tool', '2.0.0-beta.1', all);
    await request(w.app.url)
      .post('/api/publish/tool/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.2.0', reason: 'broken' })
      .expect(200);
    await publish('native-only', '1.0.0', ['native-linux-x64.tgz']);
  });
  afterAll(() => w?.close());

  it('answers the platform asked for, with every platform and the newer releases it passed over', async () => {
    const res = await get('/api/plugins/tool/latest?os=linux&arch=amd64').expect(200);
    expect(res.body).toMatchObject({
      slug: 'tool',
      version: '1.1.0',
      platform: 'linux-x64',
      download_url: `${w.app.url}/api/plugins/tool/releases/1.1.0/assets/tool-linux-x64.tgz`,
      skipped: [
        { version: '2.0.0-beta.1', reason: 'prerelease' },
        { version: '1.2.0', reason: 'yanked' },
      ],
    });
    expect(Object.keys(res.body.platforms).sort()).toEqual([
      'darwin-arm64',
      'darwin-x64',
      'linux-arm64',
      'linux-x64',
      'universal',
      'win32-x64',
    ]);
    expect(res.body.platforms['win32-x64']).toEqual({
      name: 'tool-windows-x64.zip',
      download_url: expect.stringMatching(/tool-windows-x64\.zip$/),
      size: 120,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(res.headers.vary).toMatch(/User-Agent/);
  });

  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0', 'win32-x64'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 'darwin-x64'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'linux-x64'],
    ['Mozilla/5.0 (X11; Linux aarch64) Firefox/128.0', 'linux-arm64'],
    ['MyHost/1.2 (darwin; arm64)', 'darwin-arm64'],
  ])('reads the platform from the User-Agent %s', async (userAgent, platform) => {
    expect((await get('/api/plugins/tool/latest', userAgent).expect(200)).body.platform).toBe(platform);
  });

  it('falls back to the universal asset, with platform null', async () => {
    const res = await get('/api/plugins/tool/latest', 'curl/8.5.0').expect(200);
    expect(res.body).toMatchObject({ platform: null, download_url: expect.stringMatching(/tool\.wasm$/) });
    expect((await get('/api/plugins/tool/latest?os=win32&arch=arm64').expect(200)).body.platform).toBeNull();
  });

  it('answers 422 with the platforms map when neither a platform asset nor a universal one exists', async () => {
    const res = await get('/api/plugins/native-only/latest?os=darwin&arch=arm64').expect(422);
    expect(res.body).toMatchObject({ status: 422, version: '1.0.0', platforms: { 'linux-x64': { name: 'native-linux-x64.tgz' } } });
    expect(res.body.type).toMatch(/\/problems\/no-platform-asset$/);
  });

  it('passes over releases whose min_runtime_version excludes the runtime, saying which range', async () => {
    const res = await get('/api/plugins/tool/latest?os=linux&arch=x64&runtime=2.4.0').expect(200);
    expect(res.body.version).toBe('1.0.0');
    expect(res.body.skipped).toContainEqual({ version: '1.1.0', reason: 'runtime', range: '>=3.0.0' });
    expect((await get('/api/plugins/tool/latest?runtime=3.1.0').expect(200)).body.version).toBe('1.1.0');
  });

  it('includes prereleases when asked', async () => {
    expect((await get('/api/plugins/tool/latest?prerelease=1').expect(200)).body.version).toBe('2.0.0-beta.1');
  });

  it('refuses unknown platforms and runtimes with 400 naming the field, and unknown plugins with 404', async () => {
    const res = await get('/api/plugins/tool/latest?os=plan9&runtime=soon').expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['/os', '/runtime']);
    await get('/api/plugins/nope/latest').expect(404);
  });
});
