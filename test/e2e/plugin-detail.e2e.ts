import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

describe('GET /api/plugins/:slug', () => {
  let w: PublishWorld;
  let token: string;
  let admin: { jwt: string; id: string };

  const publish = (slug: string, version: string, fields: Record<string, unknown> = {}) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, description: `The ${slug} plugin`, ...fields }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 64 }) }],
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('detail-author', ['publish:*', 'yank:*'])).token;
    const root = await userWithSession(w.app, 'detail-admin', 'admin');
    admin = { jwt: root.jwt, id: root.user.id };
    // README files by language, at the release tag, as GitHub's raw URLs serve them.
    w.forge.route('GET', '/acme/:repo/raw/:tag/:file', (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(`# ${params.repo} in ${params.file}\n\n<script>alert(1)</script>`);
    });
    w.forge.route('GET', '/acme/:repo/raw/:tag/docs/:file', (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(`# ${params.file}`);
    });
    await publish('single', '1.0.0');
    await publish('single', '1.1.0');
    await publish('single', '2.0.0-rc.1');
    await request(w.app.url)
      .post('/api/publish/single/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.1.0' })
      .expect(200);
    await publish('many', '1.0.0', { readmes: { en: 'docs/README.en.md', de: 'docs/README.de.md', 'pt-BR': 'docs/README.pt-BR.md' } });
    await publish('no-english', '1.0.0', { readmes: { fr: 'docs/README.fr.md', de: 'docs/README.de.md' } });
    await publish('tongues', '1.0.0', {
      readmes: { de: 'docs/README.de.md', 'pt-BR': 'docs/README.pt-BR.md', zh: 'docs/README.zh.md', en: 'docs/README.en.md' },
    });
  });
  afterAll(() => w?.close());

  it('answers the full plugin: releases newest first with yanked marked, owners, metadata, the README', async () => {
    const res = await request(w.app.url).get('/api/plugins/single').expect(200);
    expect(res.body).toMatchObject({
      slug: 'single',
      name: 'single',
      description: 'The single plugin',
      latestVersion: '1.0.0',
      latestPrerelease: '2.0.0-rc.1',
      verified: false,
      verifiedAt: null,
      extensions: null,
      owners: [{ login: 'detail-author', instance: 'local' }],
      metadata: { name: 'single', version: '1.0.0' },
      readmeLocale: null,
      readmeAvailableLocales: [],
    });
    expect(res.body.releases.map((r: { version: string; yanked: boolean }) => [r.version, r.yanked])).toEqual([
      ['2.0.0-rc.1', false],
      ['1.1.0', true],
      ['1.0.0', false],
    ]);
    expect(res.body.readmeHtml).toContain('single in README.md');
    expect(res.body.readmeHtml).not.toContain('<script');
    expect(res.body).not.toHaveProperty('verifiedBy');
  });

  it.each([
    ['pt-BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['de', 'de'],
    ['de-AT', 'de'],
    ['fr', 'en'],
  ])('resolves README locale %s to %s (exact, base language, en, first available)', async (asked, chosen) => {
    const res = await request(w.app.url).get(`/api/plugins/many?locale=${asked}`).expect(200);
    expect(res.body.readmeLocale).toBe(chosen);
    expect(res.body.readmeHtml).toContain(`README.${chosen}.md`);
    expect([...res.body.readmeAvailableLocales].sort()).toEqual(['de', 'en', 'pt-BR']);
  });

  it.each([
    ['EN', 'en'],
    ['pt_br', 'pt-BR'],
    ['PT-br', 'pt-BR'],
    ['zh-Hant-TW', 'zh'],
    ['zh_hant', 'zh'],
    ['english', 'en'],
    ['x-private', 'en'],
  ])('reads ?locale=%s as a language tag (any case, _ for -, shorter forms in turn) and answers the stored %s', async (asked, chosen) => {
    const res = await request(w.app.url).get(`/api/plugins/tongues?locale=${asked}`).expect(200);
    expect(res.body.readmeLocale).toBe(chosen);
    expect(res.body.readmeHtml).toContain(`README.${chosen}.md`);
  });

  it.each([['a--b'], ['..%2F..%2Fetc'], ['x'.repeat(300)], ['de%3Bq%3D0.9'], ['en-'], ['%20en']])(
    'answers 400 naming /locale for the malformed tag %s',
    async (asked) => {
      const bad = await request(w.app.url).get(`/api/plugins/tongues?locale=${asked}`).expect(400);
      expect(bad.headers['content-type']).toMatch(/problem\+json/);
      expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/locale' })]);
    },
  );

  it('falls back to the first available language when there is no English', async () => {
    expect((await request(w.app.url).get('/api/plugins/no-english?locale=ja').expect(200)).body.readmeLocale).toBe('fr');
  });

  it('shows who verified a plugin to admins only', async () => {
    await request(w.app.url).post('/api/admin/plugins/single/verify').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    const anonymous = await request(w.app.url).get('/api/plugins/single').expect(200);
    expect(anonymous.body).toMatchObject({ verified: true, verifiedAt: expect.any(Number) });
    expect(anonymous.body).not.toHaveProperty('verifiedBy');
    expect(anonymous.headers['cache-control']).toBe('public, max-age=60');
    const forAdmin = await request(w.app.url).get('/api/plugins/single').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    expect(forAdmin.body.verifiedBy).toBe(admin.id);
    // What an admin sees is never kept by a shared cache.
    expect(forAdmin.headers['cache-control']).toBe('private, no-store');
  });

  it('answers 404 for an unknown plugin and 400 for a malformed locale; sends an ETag and answers 304', async () => {
    await request(w.app.url).get('/api/plugins/nope').expect(404);
    const bad = await request(w.app.url).get('/api/plugins/single?locale=a--b').expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: '/locale' })]);
    const first = await request(w.app.url).get('/api/plugins/many').expect(200);
    expect(first.headers.etag).toBeDefined();
    await request(w.app.url).get('/api/plugins/many').set('If-None-Match', first.headers.etag).expect(304);
  });
});
