import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { DownloadCounter } from '../../src/catalogue/plugins/download-counter';
import { verifyRelease } from '../../src/lib/integrity';
import { assetChunks } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const BUDGET = 100_000;

function sha256Of(size: number, seed: number): string {
  const hash = createHash('sha256');
  for (const chunk of assetChunks({ size, seed })) hash.update(chunk);
  return hash.digest('hex');
}

describe('POST /api/publish/:slug', () => {
  let w: PublishWorld;
  let alice: { token: string; userId: string; jwt: string };
  let bob: { token: string; userId: string; jwt: string };
  let repoCounter = 0;

  /** A valid body for slug@version with two assets served by the fake forge. */
  const body = (slug: string, version = '1.0.0', extra: Record<string, unknown> = {}) => {
    const repo = `acme/${slug}-${repoCounter++}`;
    const linux = w.forge.asset(`/${repo}/releases/download/v${version}/${slug}-linux-x64.tar.gz`, { size: 5_000, seed: 1 });
    const any = w.forge.asset(`/${repo}/releases/download/v${version}/${slug}.zip`, { size: 3_000, seed: 2 });
    return {
      manifest: manifestYaml({ name: slug, version, description: 'A test plugin', tags: ['test'] }),
      manifestSource: 'plugin.yaml',
      version: `v${version}`,
      assets: [
        { name: `${slug}-linux-x64.tar.gz`, url: linux },
        { name: `${slug}.zip`, url: any },
      ],
      repoUrl: `${w.forge.url}/${repo}`,
      ...extra,
    };
  };

  const snapshot = async () => ({
    plugin: await w.count('plugin'),
    release: await w.count('release'),
    owner: await w.count('plugin_owner'),
  });

  beforeAll(async () => {
    w = await publishWorld({ HASH_BUDGET_BYTES: String(BUDGET) });
    alice = await w.tokenFor('alice', ['publish:*', 'yank:*']);
    bob = await w.tokenFor('bob', ['publish:*']);
    w.forge.route('GET', '/:owner/:repo/raw/:tag/README.md', (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(`# ${params.repo}\n\n![logo](docs/logo.png) <script>alert(1)</script> [x](javascript:alert(1))`);
    });
  });
  afterAll(() => w?.close());

  it('claims a new slug on the first push, signs the release, and records everything', async () => {
    const b = body('first-plugin');
    const res = await w.push(alice.token, 'first-plugin', b).expect(201);
    expect(res.body).toEqual({ slug: 'first-plugin', version: '1.0.0', claimed: true, warnings: [] });

    const release = await request(w.app.url).get('/api/plugins/first-plugin/releases/1.0.0').expect(200);
    expect(release.body.assets).toEqual([
      {
        name: 'first-plugin-linux-x64.tar.gz',
        url: `${w.app.config.baseUrl}/api/plugins/first-plugin/releases/1.0.0/assets/first-plugin-linux-x64.tar.gz`,
        size: 5000,
        hashed: true,
      },
      {
        name: 'first-plugin.zip',
        url: `${w.app.config.baseUrl}/api/plugins/first-plugin/releases/1.0.0/assets/first-plugin.zip`,
        size: 3000,
        hashed: true,
      },
    ]);
    expect(release.body.integrity.assets).toEqual([
      {
        name: 'first-plugin-linux-x64.tar.gz',
        sha256: sha256Of(5000, 1),
        size: 5000,
        contentType: 'application/octet-stream',
        arch: 'x64',
        os: 'linux',
        attestation: null,
      },
      {
        name: 'first-plugin.zip',
        sha256: sha256Of(3000, 2),
        size: 3000,
        contentType: 'application/octet-stream',
        arch: 'universal',
        os: 'universal',
        attestation: null,
      },
    ]);
    await request(w.app.url).get('/api/plugins/first-plugin/releases/latest').expect(200);

    // The signed payload verifies with the independent verifier against the bytes the forge served.
    const bytes = Buffer.concat([...assetChunks({ size: 5000, seed: 1 })]);
    const verified = await verifyRelease({
      release: release.body,
      keys: { fetchKeySet: async () => (await request(w.app.url).get('/.well-known/registry-key.json')).body },
      expected: { slug: 'first-plugin', version: '1.0.0' },
      asset: { name: 'first-plugin-linux-x64.tar.gz', bytes },
    });
    expect(verified.ok).toBe(true);

    // manifest_sha256 is the SHA-256 of the served canonical manifest.
    const manifest = await request(w.app.url)
      .get('/api/plugins/first-plugin/releases/1.0.0/manifest')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(manifest.status).toBe(200);
    expect(createHash('sha256').update(manifest.body).digest('hex')).toBe(release.body.manifestSha256);
    if (verified.ok) expect(verified.payload.manifest_sha256).toBe(release.body.manifestSha256);

    const audits = await w.audit();
    expect(audits.filter((a) => a.slug === 'first-plugin').map((a) => a.action)).toEqual(['plugin.claim', 'plugin.publish']);

    // README: fetched from the forge at the tag, rendered inert, relative image rewritten to raw.
    const rows = await w.app.database.dataSource.query(
      `SELECT rr.locale, rr.html FROM release_readme rr JOIN release r ON r.id = rr.release_id JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'first-plugin'`,
    );
    expect(rows.map((row: { locale: string }) => row.locale)).toEqual(['default']);
    const html = rows[0].html as string;
    expect(html).toContain('<h1>');
    expect(html).not.toMatch(/<script|href="javascript:/i);
    // Relative images resolve at the tag, shown through the signed image proxy.
    expect(html).toContain(
      `/image-proxy?url=${encodeURIComponent(`${w.forge.url}/${new URL(b.repoUrl).pathname.slice(1)}/raw/v1.0.0/docs/logo.png`)}&amp;sig=`,
    );
  });

  it('answers claimed: false for a later version, and latest follows SemVer', async () => {
    await w.push(alice.token, 'second', body('second', '1.0.0')).expect(201);
    const next = body('second', '1.10.0');
    delete (next as Record<string, unknown>).repoUrl;
    const res = await w.push(alice.token, 'second', next).expect(201);
    expect(res.body).toEqual({ slug: 'second', version: '1.10.0', claimed: false, warnings: [] });
    await w.push(alice.token, 'second', { ...body('second', '1.9.0'), repoUrl: undefined }).expect(201);
    await w.push(alice.token, 'second', { ...body('second', '2.0.0-beta.1'), repoUrl: undefined }).expect(201);
    const latest = await request(w.app.url).get('/api/plugins/second/releases/latest').expect(200);
    expect(latest.body.version).toBe('1.10.0');
  });

  describe('401: token missing, expired or revoked (no audit, nothing written)', () => {
    it.each([
      ['missing', null],
      ['malformed', 'prt_nope'],
      ['a session JWT', 'SESSION'],
    ])('%s', async (_label, token) => {
      const before = await snapshot();
      const auditBefore = (await w.audit()).length;
      const res = await w.push(token === 'SESSION' ? alice.jwt : token, 'unauth-plugin', body('unauth-plugin')).expect(401);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(await snapshot()).toEqual(before);
      expect((await w.audit()).length).toBe(auditBefore);
    });

    it('revoked', async () => {
      const carol = await w.tokenFor('carol', ['publish:*']);
      const list = await request(w.app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${carol.jwt}`);
      await request(w.app.url)
        .delete(`/api/auth/me/tokens/${list.body.tokens[0].id}`)
        .set('Authorization', `Bearer ${carol.jwt}`)
        .expect(204);
      const before = await snapshot();
      await w.push(carol.token, 'revoked-plugin', body('revoked-plugin')).expect(401);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_denied')).not.toContainEqual(expect.objectContaining({ slug: 'revoked-plugin' }));
    });
  });

  describe('403: scopes do not permit it (audited plugin.publish_denied, nothing written)', () => {
    it('a slug-bound token cannot claim a new slug', async () => {
      const dave = await w.tokenFor('dave', ['publish:dave-plugin']);
      const before = await snapshot();
      const res = await w.push(dave.token, 'dave-plugin', body('dave-plugin')).expect(403);
      expect(res.body.detail).toMatch(/publish:\*/);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_denied')).toContainEqual(expect.objectContaining({ slug: 'dave-plugin' }));
    });

    it("another user's plugin cannot be published to, even with publish:*", async () => {
      await w.push(alice.token, 'alices', body('alices')).expect(201);
      const before = await snapshot();
      await w.push(bob.token, 'alices', { ...body('alices', '2.0.0'), repoUrl: undefined }).expect(403);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_denied')).toContainEqual(expect.objectContaining({ slug: 'alices' }));
    });

    it('a yank-only token cannot publish', async () => {
      const erin = await w.tokenFor('erin', ['yank:*']);
      await w.push(erin.token, 'erins', body('erins')).expect(403);
    });
  });

  describe('400: first push without a well-formed repoUrl, or a bad body (no audit, nothing written)', () => {
    it.each([
      ['no repoUrl', { repoUrl: undefined }, '/repoUrl'],
      ['repoUrl not a URL', { repoUrl: 'not a url' }, '/repoUrl'],
      ['repoUrl without a repository path', { repoUrl: 'https://github.com/acme' }, '/repoUrl'],
      ['repoUrl with another scheme', { repoUrl: 'ftp://github.com/acme/x' }, '/repoUrl'],
      ['no assets', { assets: [] }, '/assets'],
      ['33 assets', { assets: Array.from({ length: 33 }, (_, i) => ({ name: `a${i}`, url: 'https://example.test/a' })) }, '/assets'],
      [
        'duplicate asset names',
        {
          assets: [
            { name: 'a', url: 'https://example.test/a' },
            { name: 'a', url: 'https://example.test/b' },
          ],
        },
        '/assets',
      ],
      ['asset name with a slash', { assets: [{ name: 'a/b', url: 'https://example.test/a' }] }, '/assets/0/name'],
      ['asset url not absolute', { assets: [{ name: 'a', url: '/relative' }] }, '/assets/0/url'],
      ['bad version', { version: 'latest' }, '/version'],
      ['manifest over 64 KiB', { manifest: 'x'.repeat(65_537) }, '/manifest'],
      ['unknown manifestSource', { manifestSource: 'setup.py' }, '/manifestSource'],
    ])('%s', async (_label, patch, path) => {
      const before = await snapshot();
      const auditBefore = (await w.audit()).length;
      const res = await w.push(alice.token, 'bad-body', { ...body('bad-body'), ...patch }).expect(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      expect(await snapshot()).toEqual(before);
      expect((await w.audit()).length).toBe(auditBefore);
    });
  });

  describe('409: repoUrl claimed by another slug, or version already published (audited plugin.publish_conflict)', () => {
    it('the same repository under a second slug', async () => {
      const first = body('repo-owner');
      await w.push(alice.token, 'repo-owner', first).expect(201);
      const before = await snapshot();
      // Same repository, spelled differently: scheme, case, www., .git and a trailing slash do not matter.
      const spelled = first.repoUrl.replace('http://', 'https://').replace('/acme/', '/ACME/') + '.git/';
      const res = await w.push(alice.token, 'repo-thief', { ...body('repo-thief'), repoUrl: spelled }).expect(409);
      expect(res.body.type).toMatch(/repo-claimed$/);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_conflict')).toContainEqual(expect.objectContaining({ slug: 'repo-thief' }));
    });

    it('the same version twice, including build metadata variants', async () => {
      await w.push(alice.token, 'twice', body('twice', '1.0.0+a')).expect(201);
      const before = await snapshot();
      for (const version of ['1.0.0+a', '1.0.0+b', '1.0.0']) {
        const b = { ...body('twice', version), repoUrl: undefined };
        const res = await w.push(alice.token, 'twice', b).expect(409);
        expect(res.body.type).toMatch(/version-exists$/);
        // The release that is there, so a retry after a lost answer can tell whether it is its own.
        expect(res.body.release).toEqual({
          version: expect.stringMatching(/^1\.0\.0/),
          manifestSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          publishedAt: expect.any(String),
        });
      }
      expect(await snapshot()).toEqual(before);
      expect((await w.audit('plugin.publish_conflict')).filter((a) => a.slug === 'twice')).toHaveLength(3);
    });
  });

  describe('422: the manifest fails validation (every violation listed, audited plugin.publish_invalid)', () => {
    it('lists every violation with a JSON pointer', async () => {
      const before = await snapshot();
      const manifest = [
        'name: bad-manifest',
        'version: "1.0.0"',
        `description: "${'d'.repeat(281)}"`,
        `category: "${'c'.repeat(41)}"`,
        'tags: ["ok", "' + 't'.repeat(31) + '"]',
        'homepage: "ftp://x"',
        'documentation_url: "nope"',
        'screenshots: [{caption: "no url"}]',
        'support: {issues_url: "x"}',
        'readmes: {english: "README.md"}',
        'descripton: "typo"',
      ].join('\n');
      const res = await w.push(alice.token, 'bad-manifest', { ...body('bad-manifest'), manifest }).expect(422);
      const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
      expect(paths).toEqual(
        [
          '/category',
          '/description',
          '/descripton',
          '/documentation_url',
          '/homepage',
          '/readmes/english',
          '/screenshots/0/url',
          '/support/issues_url',
          '/tags/1',
        ].sort(),
      );
      expect(res.body.errors.find((e: { path: string }) => e.path === '/descripton').message).toMatch(/description/);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_invalid')).toContainEqual(expect.objectContaining({ slug: 'bad-manifest' }));
    });

    it('a manifest version that differs from the pushed version, or a name that differs from the new slug', async () => {
      const before = await snapshot();
      const mismatch = await w.push(alice.token, 'mismatch', { ...body('mismatch'), version: 'v1.0.1' }).expect(422);
      expect(mismatch.body.errors.map((e: { path: string }) => e.path)).toContain('/version');
      const renamed = await w
        .push(alice.token, 'other-name', { ...body('other-name'), manifest: manifestYaml({ name: 'not-the-slug', version: '1.0.0' }) })
        .expect(422);
      expect(renamed.body.errors.map((e: { path: string }) => e.path)).toContain('/name');
      expect(await snapshot()).toEqual(before);
    });

    it('a declared sha256 or size that disagrees with the fetched bytes', async () => {
      const before = await snapshot();
      const b = body('liar');
      const assets = [
        { ...b.assets[0], sha256: 'ab'.repeat(32) },
        { ...b.assets[1], size: 1 },
      ];
      const res = await w.push(alice.token, 'liar', { ...b, assets }).expect(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['/assets/0/sha256', '/assets/1/size']);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_invalid')).toContainEqual(expect.objectContaining({ slug: 'liar' }));
    });
  });

  describe('502: fetching or hashing an asset failed (audited plugin.publish_asset_fail)', () => {
    it('an asset the forge does not have', async () => {
      const before = await snapshot();
      const b = body('missing-asset');
      const res = await w
        .push(alice.token, 'missing-asset', { ...b, assets: [b.assets[0], { name: 'gone.zip', url: `${w.forge.url}/nothing/here.zip` }] })
        .expect(502);
      expect(res.body.detail).toMatch(/gone\.zip/);
      expect(res.body.detail).toMatch(/404/);
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_asset_fail')).toContainEqual(expect.objectContaining({ slug: 'missing-asset' }));
    });

    describe('SSRF: private and loopback addresses are refused, and the canary sees nothing', () => {
      let canary: Server;
      let hits = 0;
      let port = 0;
      beforeAll(async () => {
        canary = createServer((_req, res) => {
          hits++;
          res.end('secret');
        });
        await new Promise<void>((r) => canary.listen(0, '127.0.0.1', () => r()));
        port = (canary.address() as { port: number }).port;
        w.forge.route('GET', '/redirect-to-canary', (_req, res) => {
          res.writeHead(302, { Location: `http://127.0.0.1:${port}/internal` });
          res.end();
        });
      });
      afterAll(() => new Promise<void>((r) => canary.close(() => r())));

      it.each([
        (p: number) => `http://127.0.0.1:${p}/x`,
        (p: number) => `https://127.0.0.1:${p}/x`,
        (p: number) => `https://localhost:${p}/x`,
        (p: number) => `https://[::ffff:127.0.0.1]:${p}/x`,
        (p: number) => `https://2130706433:${p}/x`,
        (p: number) => `https://0x7f000001:${p}/x`,
        () => 'https://169.254.169.254/latest/meta-data/',
        () => 'REDIRECT',
      ])('asset url #%#', async (make) => {
        const url = make(port) === 'REDIRECT' ? `${w.forge.url}/redirect-to-canary` : make(port);
        const before = await snapshot();
        const res = await w.push(alice.token, 'ssrf-plugin', { ...body('ssrf-plugin'), assets: [{ name: 'evil.bin', url }] });
        expect(res.status).toBe(502);
        expect(res.body.detail).toMatch(/refused/);
        expect(await snapshot()).toEqual(before);
        expect(hits).toBe(0);
      });
    });
  });

  // Servers that lie in Content-Length are covered against raw sockets in src/common/fetch.
  it('records an asset one byte over the hash budget unhashed and leaves it out of the signed list', async () => {
    const repo = 'acme/budget';
    const atBudget = w.forge.asset(`/${repo}/at.bin`, { size: BUDGET, seed: 3 });
    const over = w.forge.asset(`/${repo}/over.bin`, { size: BUDGET + 1, seed: 4 });
    await w
      .push(alice.token, 'budget2', {
        ...body('budget2'),
        assets: [
          { name: 'at.bin', url: atBudget },
          { name: 'over.bin', url: over },
        ],
      })
      .expect(201);
    const clean = await request(w.app.url).get('/api/plugins/budget2/releases/1.0.0').expect(200);
    expect(clean.body.integrity.assets.map((a: { name: string }) => a.name)).toEqual(['at.bin']);
    // The over-budget asset is visible as such: `hashed: false`, with the bytes actually streamed.
    expect(clean.body.assets.map((a: { name: string; size: number; hashed: boolean }) => [a.name, a.size, a.hashed])).toEqual([
      ['at.bin', BUDGET, true],
      ['over.bin', BUDGET + 1, false],
    ]);
    expect(clean.body.integrity.assets.every((a: Record<string, unknown>) => !('hashed' in a))).toBe(true);
  });

  // Spec: the signed payload's `assets` is "the same list as integrity.assets".
  it.each([
    ['without an over-budget asset', false],
    ['with an over-budget asset', true],
  ])('serves integrity.assets as exactly the signed list, member for member and in order (%s)', async (_label, overBudget) => {
    const slug = overBudget ? 'signed-list-over' : 'signed-list-within';
    const repo = `acme/${slug}`;
    const assets = [
      { name: `${slug}-linux-x64.tar.gz`, url: w.forge.asset(`/${repo}/a.bin`, { size: 4_000, seed: 5 }) },
      ...(overBudget ? [{ name: 'huge.bin', url: w.forge.asset(`/${repo}/huge.bin`, { size: BUDGET + 1, seed: 6 }) }] : []),
      { name: `${slug}-darwin-arm64.zip`, url: w.forge.asset(`/${repo}/b.bin`, { size: 2_000, seed: 7 }) },
    ];
    await w.push(alice.token, slug, { ...body(slug), assets }).expect(201);
    const release = (await request(w.app.url).get(`/api/plugins/${slug}/releases/1.0.0`).expect(200)).body;
    const payload = JSON.parse(Buffer.from(release.integrity.jws.split('.')[1], 'base64url').toString('utf8'));
    expect(payload.assets.map((a: { name: string }) => a.name)).toEqual([`${slug}-linux-x64.tar.gz`, `${slug}-darwin-arm64.zip`]);
    expect(release.integrity.assets).toEqual(payload.assets);
    // `hashed: false` only on the unsigned list, and only for the asset over the budget.
    expect(release.assets.map((a: { name: string; hashed: boolean }) => [a.name, a.hashed])).toEqual(
      assets.map((a) => [a.name, a.name !== 'huge.bin']),
    );
  });

  it('yanks and un-yanks with a yank scope; latest skips yanked releases', async () => {
    await w.push(alice.token, 'yankable', body('yankable', '1.0.0')).expect(201);
    await w.push(alice.token, 'yankable', { ...body('yankable', '1.1.0'), repoUrl: undefined }).expect(201);
    await w.push(bob.token, 'yankable', undefined as never).expect(400);
    const denied = await request(w.app.url)
      .post('/api/publish/yankable/yank')
      .set('Authorization', `Bearer ${bob.token}`)
      .send({ version: '1.1.0' });
    expect(denied.status).toBe(403);
    const yanked = await request(w.app.url)
      .post('/api/publish/yankable/yank')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ version: 'v1.1.0', reason: 'broken' })
      .expect(200);
    expect(yanked.body).toEqual({ slug: 'yankable', version: '1.1.0', yanked: true });
    expect((await request(w.app.url).get('/api/plugins/yankable/releases/latest')).body.version).toBe('1.0.0');
    const exact = await request(w.app.url).get('/api/plugins/yankable/releases/1.1.0').expect(200);
    expect(exact.body).toMatchObject({ yanked: true, yankReason: 'broken' });
    await request(w.app.url)
      .post('/api/publish/yankable/yank')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ version: '1.1.0', undo: true })
      .expect(200);
    expect((await request(w.app.url).get('/api/plugins/yankable/releases/latest')).body.version).toBe('1.1.0');
    const actions = (await w.audit()).filter((a) => a.slug === 'yankable').map((a) => a.action);
    // A refused yank is audited as a yank denial, never as a publish denial.
    expect(actions).toEqual(expect.arrayContaining(['plugin.yank', 'plugin.unyank', 'plugin.yank_denied']));
    expect(actions).not.toContain('plugin.publish_denied');
    await request(w.app.url)
      .post('/api/publish/yankable/yank')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ version: '9.9.9' })
      .expect(404);
  });

  it('counts a download and redirects to the asset', async () => {
    await w.push(alice.token, 'downloads', body('downloads')).expect(201);
    const res = await request(w.app.url).get('/api/plugins/downloads/releases/1.0.0/assets/downloads.zip').expect(302);
    expect(res.headers.location).toMatch(/downloads\.zip$/);
    await w.app.app.get(DownloadCounter).flush();
    const rows = await w.app.database.dataSource.query(`SELECT downloads FROM plugin WHERE slug = 'downloads'`);
    expect(Number(rows[0].downloads)).toBe(1);
  });
});

describe('publish races', () => {
  let w: PublishWorld;
  beforeAll(async () => {
    w = await publishWorld();
  });
  afterAll(() => w?.close());

  it('20 concurrent first pushes of one slug by two users end with exactly one owner', async () => {
    const one = await w.tokenFor('racer-one', ['publish:*']);
    const two = await w.tokenFor('racer-two', ['publish:*']);
    const url = w.forge.asset('/acme/race/a.zip', { size: 1000 });
    const make = (i: number) => ({
      manifest: manifestYaml({ name: 'race', version: '1.0.0' }),
      manifestSource: 'plugin.yaml',
      version: '1.0.0',
      assets: [{ name: 'a.zip', url }],
      repoUrl: `${w.forge.url}/acme/race${i % 3 === 0 ? '' : `-${i}`}`,
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => w.push((i % 2 ? one : two).token, 'race', make(i))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => [201, 403, 409].includes(s))).toBe(true);
    const owners = await w.app.database.dataSource.query(
      `SELECT o.user_id FROM plugin_owner o JOIN plugin p ON p.id = o.plugin_id WHERE p.slug = 'race'`,
    );
    expect(owners).toHaveLength(1);
    expect(await w.count('release')).toBe(1);
  });

  it('20 concurrent pushes of one version give one release', async () => {
    const owner = await w.tokenFor('racer-three', ['publish:*']);
    const url = w.forge.asset('/acme/version-race/a.zip', { size: 1000 });
    const make = () => ({
      manifest: manifestYaml({ name: 'version-race', version: '2.0.0' }),
      manifestSource: 'plugin.yaml',
      version: '2.0.0',
      assets: [{ name: 'a.zip', url }],
      repoUrl: `${w.forge.url}/acme/version-race`,
    });
    await w
      .push(owner.token, 'version-race', {
        ...make(),
        manifest: manifestYaml({ name: 'version-race', version: '1.0.0' }),
        version: '1.0.0',
      })
      .expect(201);
    const results = await Promise.all(Array.from({ length: 20 }, () => w.push(owner.token, 'version-race', make())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const rows = await w.app.database.dataSource.query(
      `SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'version-race' ORDER BY r.version`,
    );
    expect(rows.map((r: { version: string }) => r.version)).toEqual(['1.0.0', '2.0.0']);
  });
});

describe('GET /api/admin/audit', () => {
  let w: PublishWorld;
  beforeAll(async () => {
    w = await publishWorld();
  });
  afterAll(() => w?.close());

  it('is for admins only, newest first, filtered by action and slug', async () => {
    const user = await w.tokenFor('plain-user', ['publish:*']);
    await w
      .push(user.token, 'audited', {
        manifest: 'name: x',
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'a', url: 'https://example.test/a' }],
        repoUrl: 'https://example.test/a/b',
      })
      .expect(422);
    await request(w.app.url).get('/api/admin/audit').expect(401);
    await request(w.app.url).get('/api/admin/audit').set('Authorization', `Bearer ${user.jwt}`).expect(403);
    const { userWithSession } = await import('../support/sessions');
    const admin = await userWithSession(w.app, 'the-admin', 'admin');
    const page = await request(w.app.url)
      .get('/api/admin/audit?action=plugin.publish_invalid&slug=audited')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .expect(200);
    expect(page.body).toMatchObject({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect(page.body.entries[0]).toMatchObject({ action: 'plugin.publish_invalid', slug: 'audited', actor: { userId: user.userId } });
    expect(page.headers['cache-control']).toBe('no-store');
    const all = await request(w.app.url).get('/api/admin/audit?limit=100').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    const times = all.body.entries.map((e: { createdAt: number }) => e.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await request(w.app.url).get('/api/admin/audit?limit=101').set('Authorization', `Bearer ${admin.jwt}`).expect(400);
    await request(w.app.url).get('/api/admin/audit?action=nope').set('Authorization', `Bearer ${admin.jwt}`).expect(400);
  });
});
