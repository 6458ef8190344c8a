import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { imageProxyKey, isSignedImageUrl } from '../../src/platform/markdown/proxy-signature';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { verifyRelease, type KeySet, type ReleaseRecord } from '../../src/lib/integrity';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { eventually } from '../support/eventually';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Mirror mode: an upstream registry on loopback, a second instance with MIRROR_OF pointed at it
 * (through a small proxy that tampers with two releases), each on its own database.
 */
describe('a read-only mirror follows its upstream', () => {
  let up: PublishWorld;
  let mirror: TestApp;
  let proxy: Server;
  let token: string;
  let mirrorAdmin: { Authorization: string };
  const alteredPictures = new Set<string>();

  const flipLast = (text: string) => text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);
  const publish = (slug: string, version: string) =>
    up
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, description: `the ${slug} plugin` }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: up.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 700 }) }],
        repoUrl: `${up.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const latestOn = async (url: string, slug: string) => {
    const res = await request(url).get(`/api/plugins/${slug}/latest`);
    return res.status === 200 ? res.body : null;
  };

  beforeAll(async () => {
    up = await publishWorld();
    token = (await up.tokenFor('mirror-author', ['publish:*', 'yank:*'])).token;
    // Upstream as the mirror reads it: untouched, except two releases changed on the way.
    proxy = createServer((req, res) => {
      void (async () => {
        const path = req.url ?? '/';
        const answer = await fetch(`${up.app.url}${path}`, { redirect: 'manual', headers: { accept: req.headers.accept ?? '*/*' } });
        let body = Buffer.from(await answer.arrayBuffer());
        if (path === '/api/plugins/forged/releases/1.0.0') {
          const release = JSON.parse(body.toString('utf8'));
          release.integrity.jws = flipLast(release.integrity.jws);
          body = Buffer.from(JSON.stringify(release));
        }
        if (path === '/api/plugins/rewritten/releases/1.0.0/manifest')
          body = Buffer.from(body.toString('utf8').replace('"rewritten"', '"rewritten" '));
        // Upstream's README as served, with what a sanitizer must never let through added to it;
        // and the second screenshot's wide encoding altered on the way.
        if (path.startsWith('/api/plugins/dressed') && !path.includes('/releases')) {
          const detail = JSON.parse(body.toString('utf8'));
          if (typeof detail.readmeHtml === 'string')
            detail.readmeHtml += '<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a>';
          const altered = detail.images?.screenshots?.[1]?.variants?.at(-1)?.url;
          if (altered) alteredPictures.add(altered);
          body = Buffer.from(JSON.stringify(detail));
        }
        if (alteredPictures.has(path)) body[body.length - 1] ^= 0xff;
        const location = answer.headers.get('location');
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
          ...(location ? { location } : {}),
        });
        res.end(body);
      })().catch((error: Error) => res.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    mirror = await startTestApp({ MIRROR_OF: proxyUrl, MIRROR_POLL_INTERVAL_MS: '200', FETCH_ALLOW_HOSTS: '127.0.0.1' });
    mirrorAdmin = { Authorization: `Bearer ${(await userWithSession(mirror, 'mirror-root', 'admin')).jwt}` };
  });
  afterAll(async () => {
    await mirror?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await up?.close();
  });

  it("serves a release published upstream within seconds, verified under its own (upstream's) key set", async () => {
    const started = Date.now();
    await publish('copied', '1.0.0');
    const latest = await eventually(() => latestOn(mirror.url, 'copied'));
    expect(latest).toMatchObject({ version: '1.0.0' });
    expect(Date.now() - started).toBeLessThan(10_000);

    const upstreamKeys = (await request(up.app.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
    const mirrorKeys = (await request(mirror.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
    expect(mirrorKeys.keys.map((k) => k.kid)).toEqual(upstreamKeys.keys.map((k) => k.kid));

    const release = (await request(mirror.url).get('/api/plugins/copied/releases/1.0.0').expect(200)).body as ReleaseRecord;
    const original = (await request(up.app.url).get('/api/plugins/copied/releases/1.0.0').expect(200)).body as ReleaseRecord;
    // Not re-signed: upstream's JWS as is, and it verifies with the mirror's key set.
    expect(release.integrity?.jws).toBe(original.integrity?.jws);
    const verdict = await verifyRelease({ release, keys: mirrorKeys, expected: { slug: 'copied', version: '1.0.0' } });
    expect(verdict).toMatchObject({ ok: true, kid: upstreamKeys.keys[0].kid });
    // The same manifest bytes, and the catalogue lists it.
    const [mine, theirs] = await Promise.all(
      [mirror.url, up.app.url].map((url) =>
        request(url)
          .get('/api/plugins/copied/releases/1.0.0/manifest')
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          }),
      ),
    );
    expect(Buffer.compare(mine.body as Buffer, theirs.body as Buffer)).toBe(0);
    const listed = (await request(mirror.url).get('/api/plugins?search=copied').expect(200)).body;
    expect(listed.plugins.map((p: { slug: string }) => p.slug)).toContain('copied');
  });

  it('refuses catalogue writes with 503 problem+json, and takes no release', async () => {
    const res = await request(mirror.url)
      .post('/api/publish/copied')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '2.0.0' })
      .expect(503);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 503,
      type: expect.stringContaining('read-only-mirror'),
      upstream: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/),
    });
    await request(mirror.url).post('/api/admin/plugins/copied/verify').set(mirrorAdmin).expect(503);
    await request(mirror.url).post('/api/submit/oauth').set(mirrorAdmin).send({}).expect(503);
    expect(Number((await mirror.database.dataSource.query('SELECT count(*)::int AS n FROM release'))[0].n)).toBe(1);
    // Reads and this instance's own accounts go on.
    await request(mirror.url).get('/api/plugins/copied').expect(200);
  });

  it('refuses tampered releases, records why, and still copies the others; yanks follow', async () => {
    await publish('forged', '1.0.0');
    await publish('rewritten', '1.0.0');
    await publish('copied', '1.1.0');
    await request(up.app.url)
      .post('/api/publish/copied/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.0.0', reason: 'broken' })
      .expect(200);
    await eventually(async () => ((await latestOn(mirror.url, 'copied'))?.version === '1.1.0' ? true : null));
    const status = await eventually(async () => {
      const body = (await request(mirror.url).get('/api/admin/mirror').set(mirrorAdmin).expect(200)).body;
      return body.failureCount >= 2 ? body : null;
    });
    expect(status).toMatchObject({ mirror: true, lastError: null, failureCount: 2 });
    expect(status.failures.map((f: { slug: string; code: string }) => [f.slug, f.code]).sort()).toEqual([
      ['forged', 'SIGNATURE_INVALID'],
      ['rewritten', 'MANIFEST_MISMATCH'],
    ]);
    // Not served: no plugin row without a verified release, and no release.
    await request(mirror.url).get('/api/plugins/forged/releases/1.0.0').expect(404);
    await request(mirror.url).get('/api/plugins/rewritten/latest').expect(404);
    const yanked = await eventually(async () => {
      const body = (await request(mirror.url).get('/api/plugins/copied/releases/1.0.0').expect(200)).body;
      return body.yanked ? body : null;
    });
    expect(yanked).toMatchObject({ yanked: true, yankReason: 'broken' });
    // The cursor is kept in the mirror's database: a restart resumes there.
    expect(status.cursor).toMatch(/^[0-9]+$/);
    const metrics = (await request(mirror.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/registry_mirror_refusals_total\{code="SIGNATURE_INVALID"\} 1/);
    // Upstream rotates: the mirror serves the new key set (old key still there while it drains).
    const upAdmin = { Authorization: `Bearer ${(await userWithSession(up.app, 'up-root', 'admin')).jwt}` };
    await request(up.app.url).post('/api/admin/keys/rotate').set(upAdmin).expect(200);
    const upstreamKids = ((await request(up.app.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet).keys.map(
      (k) => k.kid,
    );
    expect(upstreamKids).toHaveLength(2);
    await eventually(async () => {
      const kids = ((await request(mirror.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet).keys.map((k) => k.kid);
      return JSON.stringify(kids) === JSON.stringify(upstreamKids) ? true : null;
    });
    // Only admins see the mirror's state.
    await request(mirror.url).get('/api/admin/mirror').expect(401);
  });

  it("shows upstream's README (sanitized again, images signed with its own key), pictures (checked by their hash) and extension fields", async () => {
    const upAdmin = { Authorization: `Bearer ${(await userWithSession(up.app, 'dress-root', 'admin')).jwt}` };
    await request(up.app.url)
      .put('/api/admin/extension-fields')
      .set(upAdmin)
      .send({ fields: [{ key: 'stars', type: 'number' }] })
      .expect(200);
    up.forge.route('GET', '/acme/dressed/raw/1.0.0/README.md', (_req, res) => {
      res
        .writeHead(200, { 'Content-Type': 'text/markdown' })
        .end('# Dressed up\n\nA plugin with a **README**.\n\n![logo](https://images.example.org/logo.png)\n');
    });
    up.forge.file('/pictures/icon.png', await picture('png', 300, 300), 'image/png');
    up.forge.file('/pictures/one.png', await picture('png', 1600, 900), 'image/png');
    up.forge.file('/pictures/two.png', await picture('jpeg', 1400, 700), 'image/jpeg');
    const screenshots = [
      { url: `${up.forge.url}/pictures/one.png`, caption: 'One', alt: 'The first' },
      { url: `${up.forge.url}/pictures/two.png`, caption: 'Two' },
    ];
    await up
      .push(token, 'dressed', {
        manifest: manifestYaml({
          name: 'dressed',
          version: '1.0.0',
          description: 'the dressed plugin',
          stars: 4,
          icon: `${up.forge.url}/pictures/icon.png`,
          screenshots,
        }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'dressed.zip', url: up.forge.asset('/acme/dressed/1.0.0/dressed.zip', { size: 300 }) }],
        repoUrl: `${up.forge.url}/acme/dressed`,
      })
      .expect(201);
    await eventually(() => latestOn(mirror.url, 'dressed'), 'dressed on the mirror');
    const theirs = (await request(up.app.url).get('/api/plugins/dressed').expect(200)).body;
    const mine = (await request(mirror.url).get('/api/plugins/dressed').expect(200)).body;

    expect(theirs.readmeHtml).toContain('<h1>Dressed up</h1>');
    expect(mine.readmeHtml).toContain('<h1>Dressed up</h1>');
    expect(mine.readmeHtml).toContain('<strong>README</strong>');
    expect(mine.readmeHtml).not.toMatch(/<script|onerror|javascript:/);
    expect(mine.readmeLocale).toBeNull();
    // The picture goes through this registry's own proxy, signed with its own key.
    const src = /<img src="([^"]+)"/.exec(mine.readmeHtml)![1].replace(/&amp;/g, '&');
    const proxied = new URL(src, mirror.url);
    expect(proxied.pathname).toBe('/image-proxy');
    expect(proxied.searchParams.get('url')).toBe('https://images.example.org/logo.png');
    expect(
      isSignedImageUrl(imageProxyKey(mirror.config.keyEncryptionKey), proxied.searchParams.get('url')!, proxied.searchParams.get('sig')!),
    ).toBe(true);
    expect(
      isSignedImageUrl(imageProxyKey(up.app.config.keyEncryptionKey), proxied.searchParams.get('url')!, proxied.searchParams.get('sig')!),
    ).toBe(false);

    // Pictures: the same encodings under the same names, byte for byte; the altered one left out.
    expect(theirs.images.screenshots).toHaveLength(2);
    expect(alteredPictures.size).toBe(1);
    expect(mine.images).toEqual({ ...theirs.images, screenshots: [theirs.images.screenshots[0]] });
    for (const { url } of [...mine.images.icon.variants, ...mine.images.screenshots[0].variants]) {
      const [a, b] = await Promise.all(
        [mirror.url, up.app.url].map((origin) =>
          request(origin)
            .get(url)
            .buffer(true)
            .parse((res, done) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => done(null, Buffer.concat(chunks)));
            })
            .expect(200),
        ),
      );
      expect(Buffer.compare(a.body as Buffer, b.body as Buffer)).toBe(0);
    }
    await request(mirror.url)
      .get([...alteredPictures][0])
      .expect(404);

    // Extension fields: the signed manifest's, the same as upstream shows, in the catalogue too.
    expect(theirs.extensions).toEqual({ stars: 4 });
    expect(mine.extensions).toEqual(theirs.extensions);
    expect(mine.metadata).toEqual(theirs.metadata);
    const listed = (await request(mirror.url).get('/api/plugins?search=dressed').expect(200)).body.plugins.find(
      (p: { slug: string }) => p.slug === 'dressed',
    );
    expect(listed.extensions).toEqual({ stars: 4 });
    expect(listed.images).toEqual(
      theirs.images.icon
        ? { icon: { url: theirs.images.icon.url, width: theirs.images.icon.width, height: theirs.images.icon.height } }
        : {},
    );
    // The README is searchable on the mirror as upstream.
    const found = (await request(mirror.url).get('/api/plugins?search=README').expect(200)).body.plugins.map(
      (p: { slug: string }) => p.slug,
    );
    expect(found).toContain('dressed');
  });

  it("follows what upstream's page shows as releases come and go and the README is rendered again", async () => {
    const upAdmin = { Authorization: `Bearer ${(await userWithSession(up.app, 'shown-root', 'admin')).jwt}` };
    const readmeOn = async (url: string) =>
      (await request(url).get('/api/plugins/dressed').expect(200)).body as {
        readmeHtml: string | null;
        images: { icon?: unknown };
        latestVersion: string;
      };
    const until = (what: string, check: (detail: Awaited<ReturnType<typeof readmeOn>>) => boolean) =>
      eventually(async () => {
        const detail = await readmeOn(mirror.url);
        return check(detail) ? detail : null;
      }, what);

    up.forge.route(
      'GET',
      '/acme/dressed/raw/1.1.0/README.md',
      (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/markdown' }).end('# Version two\n'),
    );
    await up
      .push(token, 'dressed', {
        manifest: manifestYaml({ name: 'dressed', version: '1.1.0', description: 'the dressed plugin', stars: 5 }),
        manifestSource: 'plugin.yaml',
        version: '1.1.0',
        assets: [{ name: 'dressed.zip', url: up.forge.asset('/acme/dressed/1.1.0/dressed.zip', { size: 300 }) }],
        repoUrl: `${up.forge.url}/acme/dressed`,
      })
      .expect(201);
    const second = await until('1.1.0 shown', (d) => d.latestVersion === '1.1.0');
    expect(second.readmeHtml).toContain('<h1>Version two</h1>');
    expect(second.images.icon).toBeUndefined();

    // Yanked upstream: both pages show 1.0.0 again, its README and icon.
    await request(up.app.url)
      .post('/api/publish/dressed/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.1.0' })
      .expect(200);
    const back = await until('1.0.0 shown again', (d) => d.latestVersion === '1.0.0');
    expect(back.readmeHtml).toContain('<h1>Dressed up</h1>');
    expect(back.images.icon).toEqual((await readmeOn(up.app.url)).images.icon);

    // Upstream renders 1.0.0's README again (Refresh manifest): plugin.updated brings the new rendering.
    up.forge.route(
      'GET',
      '/acme/dressed/raw/1.0.0/README.md',
      (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/markdown' }).end('# Dressed again\n'),
    );
    // The manifest file in the repository, as published (Refresh manifest reads it there).
    const screenshots = [
      { url: `${up.forge.url}/pictures/one.png`, caption: 'One', alt: 'The first' },
      { url: `${up.forge.url}/pictures/two.png`, caption: 'Two' },
    ];
    const manifestFile = manifestYaml({
      name: 'dressed',
      version: '1.0.0',
      description: 'the dressed plugin',
      stars: 4,
      icon: `${up.forge.url}/pictures/icon.png`,
      screenshots,
    });
    up.forge.route(
      'GET',
      '/api/v3/repos/acme/dressed/contents/.plugin.yaml',
      (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/vnd.github.raw+json' }).end(manifestFile),
    );
    const refreshedUp = await request(up.app.url).post('/api/admin/plugins/dressed/refresh-manifest').set(upAdmin).send({});
    expect(refreshedUp.status).toBe(200);
    expect((await readmeOn(up.app.url)).readmeHtml).toContain('<h1>Dressed again</h1>');
    const refreshed = await until('the README rendered again', (d) => (d.readmeHtml ?? '').includes('Dressed again'));
    expect(refreshed.images.icon).toEqual((await readmeOn(up.app.url)).images.icon);
  });
});
