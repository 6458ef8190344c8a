import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DownloadCounter } from '../../src/catalogue/plugins/download-counter';
import { decodeSignedPayload } from '../../src/lib/integrity';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

type Token = { token: string; userId: string; jwt: string };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function signedPayload(jws: string) {
  const decoded = decodeSignedPayload(Buffer.from(jws.split('.')[1], 'base64url'));
  if (!decoded.ok) throw new Error('the JWS payload does not decode');
  return decoded.payload;
}

/** A push body for slug@version with one asset served by the fake forge. */
function pushBody(w: PublishWorld, slug: string, version: string, repo: string, fields: Record<string, unknown> = {}) {
  const url = w.forge.asset(`/${repo}/releases/download/${version}/${slug}.zip`, { size: 2_000, seed: version.length });
  return {
    manifest: manifestYaml({ name: slug, version, ...fields }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url }],
    repoUrl: `${w.forge.url}/${repo}`,
  };
}

describe('publish: the owner CI matrix on a new slug', () => {
  let w: PublishWorld;
  beforeAll(async () => {
    w = await publishWorld();
  });
  afterAll(() => w?.close());

  it('10 versions from one owner and 10 from another user at once: one claim, every owner push lands, every other is refused', async () => {
    const alice = await w.tokenFor('matrix-alice', ['publish:*']);
    const bob = await w.tokenFor('matrix-bob', ['publish:*']);
    const pushes = [
      ...Array.from({ length: 10 }, (_, i) => ({ who: alice, version: `1.0.${i}` })),
      ...Array.from({ length: 10 }, (_, i) => ({ who: bob, version: `2.0.${i}` })),
    ];
    const bodies = pushes.map((p) => pushBody(w, 'matrix', p.version, 'acme/matrix'));
    const results = await Promise.all(pushes.map((p, i) => w.push(p.who.token, 'matrix', bodies[i])));

    const claimed = results.map((r, i) => ({ r, p: pushes[i] })).filter(({ r }) => r.status === 201 && r.body.claimed === true);
    expect(claimed).toHaveLength(1);
    const owner = claimed[0].p.who;
    const ownVersions = pushes.filter((p) => p.who === owner).map((p) => p.version);
    results.forEach((r, i) => {
      if (pushes[i].who === owner) expect(r.status).toBe(201);
      else expect([403, 409]).toContain(r.status);
    });
    const rows: { version: string }[] = await w.app.database.dataSource.query(
      `SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'matrix'`,
    );
    expect(rows.map((r) => r.version).sort()).toEqual([...ownVersions].sort());
    const latest = await request(w.app.url).get('/api/plugins/matrix/releases/latest').expect(200);
    expect(latest.body.version).toBe(ownVersions[9]);
  });
});

describe('publish: correctness and bounds', () => {
  let w: PublishWorld;
  let alice: Token;
  let n = 0;
  const repo = () => `acme/hard-${n++}`;
  const query = (sql: string, params: unknown[] = []) => w.app.database.dataSource.query(sql, params);

  beforeAll(async () => {
    w = await publishWorld();
    alice = await w.tokenFor('hard-alice', ['publish:*', 'yank:*']);
  });
  afterAll(() => w?.close());

  it('serves manifest bytes that hash to the signed manifest_sha256, extension fields included', async () => {
    await query(`INSERT INTO app_setting (key, value, updated_at) VALUES ('extension_fields.global', $1::jsonb, now())`, [
      JSON.stringify([
        { key: 'stars', type: 'number' },
        { key: 'platforms', type: 'string[]' },
      ]),
    ]);
    const res = await w
      .push(alice.token, 'with-ext', pushBody(w, 'with-ext', '1.0.0', repo(), { stars: 5, platforms: ['a', 'b'] }))
      .expect(201);
    expect(res.body.claimed).toBe(true);
    const release = (await request(w.app.url).get('/api/plugins/with-ext/releases/1.0.0').expect(200)).body;
    const served = await request(w.app.url)
      .get('/api/plugins/with-ext/releases/1.0.0/manifest')
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString('utf8')));
        r.on('end', () => cb(null, text));
      });
    const text = served.body as string;
    expect(JSON.parse(text)).toMatchObject({ stars: 5, platforms: ['a', 'b'] });
    expect(sha256(text)).toBe(signedPayload(release.integrity.jws).manifest_sha256);
    expect(sha256(text)).toBe(release.manifestSha256);
  });

  it('follows one latest rule: highest SemVer, not yanked, prereleases only when asked', async () => {
    const r = repo();
    await w.push(alice.token, 'pre', pushBody(w, 'pre', '1.0.0-beta.2', r)).expect(201);
    await w.push(alice.token, 'pre', pushBody(w, 'pre', '1.0.0-beta.10', r)).expect(201);
    const pointers = async () => (await query(`SELECT latest_version, latest_prerelease FROM plugin WHERE slug = 'pre'`))[0];
    expect(await pointers()).toEqual({ latest_version: null, latest_prerelease: '1.0.0-beta.10' });
    await request(w.app.url).get('/api/plugins/pre/releases/latest').expect(404);
    expect((await request(w.app.url).get('/api/plugins/pre/releases/latest?prerelease=1').expect(200)).body.version).toBe('1.0.0-beta.10');
    await request(w.app.url).get('/api/plugins/pre/releases/latest?prerelease=yes').expect(400);

    await w.push(alice.token, 'pre', pushBody(w, 'pre', '1.0.0', r)).expect(201);
    expect(await pointers()).toEqual({ latest_version: '1.0.0', latest_prerelease: null });
    await w.push(alice.token, 'pre', pushBody(w, 'pre', '1.1.0-rc.1', r)).expect(201);
    expect(await pointers()).toEqual({ latest_version: '1.0.0', latest_prerelease: '1.1.0-rc.1' });
    expect((await request(w.app.url).get('/api/plugins/pre/releases/latest?prerelease=1').expect(200)).body.version).toBe('1.1.0-rc.1');

    await request(w.app.url)
      .post('/api/publish/pre/yank')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ version: '1.1.0-rc.1' })
      .expect(200);
    expect(await pointers()).toEqual({ latest_version: '1.0.0', latest_prerelease: null });
    expect((await request(w.app.url).get('/api/plugins/pre/releases/latest?prerelease=1').expect(200)).body.version).toBe('1.0.0');
  });

  it('counts a GET download on the release and the plugin; a HEAD resolves the link without counting', async () => {
    await w.push(alice.token, 'dl', pushBody(w, 'dl', '1.0.0', repo())).expect(201);
    const path = '/api/plugins/dl/releases/1.0.0/assets/dl.zip';
    const head = await request(w.app.url).head(path).expect(302);
    expect(head.headers.location).toMatch(/dl\.zip$/);
    const counts = async () =>
      (
        await query(
          `SELECT p.downloads AS plugin, r.downloads AS release FROM plugin p JOIN release r ON r.plugin_id = p.id WHERE p.slug = 'dl'`,
        )
      )[0];
    expect(await counts()).toEqual({ plugin: '0', release: '0' });
    await request(w.app.url).get(path).expect(302);
    await request(w.app.url).get(path).expect(302);
    await w.app.app.get(DownloadCounter).flush();
    expect(await counts()).toEqual({ plugin: '2', release: '2' });
    expect((await request(w.app.url).get('/api/plugins/dl/releases/1.0.0').expect(200)).body.downloads).toBe(2);
  });

  it('registry verify checks a release through the download links without counting a download', async () => {
    await w.push(alice.token, 'checked', pushBody(w, 'checked', '1.0.0', repo())).expect(201);
    // Asynchronously: the registry answering the CLI runs in this very process.
    const result = await promisify(execFile)(process.execPath, [
      join(__dirname, '..', '..', 'bin', 'registry.js'),
      'verify',
      'checked@1.0.0',
      '--registry',
      w.app.url,
      // The log head it verified is remembered there, not in the home folder.
      '--state',
      join(mkdtempSync(join(tmpdir(), 'publish-hardening-')), 'log-heads.json'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('checked.zip');
    await w.app.app.get(DownloadCounter).flush();
    const [row] = await query(
      `SELECT p.downloads AS plugin, r.downloads AS release FROM plugin p JOIN release r ON r.plugin_id = p.id WHERE p.slug = 'checked'`,
    );
    expect(row).toEqual({ plugin: '0', release: '0' });
  });

  it('counts 200 concurrent downloads exactly, in batches rather than a row lock a request', async () => {
    await w.push(alice.token, 'busy', pushBody(w, 'busy', '1.0.0', repo())).expect(201);
    await w.push(alice.token, 'busy', pushBody(w, 'busy', '1.1.0', repo())).expect(201);
    const counter = w.app.app.get(DownloadCounter);
    const get = (version: string) => request(w.app.url).get(`/api/plugins/busy/releases/${version}/assets/busy.zip`).expect(302);
    // Flushes race the downloads on purpose: a count is never lost between batches.
    await Promise.all([
      ...Array.from({ length: 150 }, () => get('1.0.0')),
      ...Array.from({ length: 50 }, () => get('1.1.0')),
      counter.flush(),
      counter.flush(),
    ]);
    await counter.flush();
    const rows = await query(
      `SELECT r.version, r.downloads AS release, p.downloads AS plugin FROM plugin p JOIN release r ON r.plugin_id = p.id WHERE p.slug = 'busy' ORDER BY r.version`,
    );
    expect(rows).toEqual([
      { version: '1.0.0', release: '150', plugin: '200' },
      { version: '1.1.0', release: '50', plugin: '200' },
    ]);
  });

  it.each([['Bad_Slug'], ['a'.repeat(65)], ['-lead']])(
    'answers 400 for the path slug %s before anything else, auditing nothing',
    async (slug) => {
      const before = (await w.audit()).length;
      const res = await w.push(alice.token, slug, pushBody(w, 'whatever', '1.0.0', repo())).expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '/slug' })]);
      expect((await w.audit()).length).toBe(before);
    },
  );

  it('refuses NUL in the manifest as a 422 naming the field, before any asset is fetched', async () => {
    const body = pushBody(w, 'nul', '1.0.0', repo());
    const json = JSON.stringify({ name: 'nul', version: '1.0.0', description: 'a\u0000b' });
    const before = w.forge.requests.length;
    const res = await w.push(alice.token, 'nul', { ...body, manifest: json, manifestSource: 'plugin.json' }).expect(422);
    expect(res.body.errors).toEqual([{ path: '/description', message: 'description: must not contain NUL (U+0000) characters' }]);
    expect(w.forge.requests.length).toBe(before);
    expect(await w.audit('plugin.publish_invalid')).toContainEqual(expect.objectContaining({ slug: 'nul' }));
    expect(await query(`SELECT 1 FROM plugin WHERE slug = 'nul'`)).toHaveLength(0);
  });

  it.each([
    ['NUL in a string', { a: 'x\u0000' }, '/attestation/a'],
    ['nested 40 deep', JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`), '/attestation'],
    ['over 64 KiB', { blob: 'x'.repeat(70_000) }, '/attestation'],
    ['an unsafe integer', { n: 2 ** 60 }, '/attestation/n'],
  ])('refuses an attestation with %s as a 422 naming it, before any asset is fetched', async (_, attestation, path) => {
    const slug = `att-${n}`;
    const before = w.forge.requests.length;
    const res = await w.push(alice.token, slug, { ...pushBody(w, slug, '1.0.0', repo()), attestation }).expect(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(w.forge.requests.length).toBe(before);
    expect(await query(`SELECT 1 FROM plugin WHERE slug = $1`, [slug])).toHaveLength(0);
  });

  it('stores an attestation once per release and serves it on every signed asset', async () => {
    // Not a Sigstore bundle (those are verified at ingest: test/e2e/publish-provenance.e2e.ts): passed through, unverified.
    const attestation = { mediaType: 'application/vnd.in-toto+json', dsseEnvelope: { payload: 'e30=' } };
    const body = pushBody(w, 'attested', '1.0.0', repo());
    const url2 = w.forge.asset(`/attested/two.bin`, { size: 10 });
    await w.push(alice.token, 'attested', { ...body, assets: [...body.assets, { name: 'two.bin', url: url2 }], attestation }).expect(201);
    const [row] = await query(
      `SELECT r.attestation, r.integrity FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'attested'`,
    );
    expect(row.attestation).toEqual(attestation);
    expect(JSON.stringify(row.integrity)).not.toContain('dsseEnvelope');
    const release = (await request(w.app.url).get('/api/plugins/attested/releases/1.0.0').expect(200)).body;
    expect(release.integrity.assets.map((a: { attestation: unknown }) => a.attestation)).toEqual([attestation, attestation]);
    expect(signedPayload(release.integrity.jws).assets.map((a) => a.attestation)).toEqual([attestation, attestation]);
    expect(release.provenance).toEqual({ status: 'unverified', repository: null, workflow: null, ref: null, issuer: null, signedAt: null });
  });

  it('reports a README that cannot be read as a warning in the response and the audit entry', async () => {
    const res = await w
      .push(alice.token, 'no-readme', pushBody(w, 'no-readme', '1.0.0', repo(), { readme: 'docs/MISSING.md' }))
      .expect(201);
    expect(res.body.warnings).toEqual([expect.stringContaining('docs/MISSING.md')]);
    const [entry] = (await w.audit('plugin.publish')).filter((a) => a.slug === 'no-readme');
    expect(entry.details.warnings).toEqual(res.body.warnings);
  });

  describe('rights re-checked when the release is recorded', () => {
    /** An asset whose response waits until `release()` is called, so the test can act mid-ingest. */
    const heldAsset = (path: string) => w.forge.held(path, Buffer.alloc(100, 1));

    it('a token revoked while its push is being ingested does not publish (401, nothing written)', async () => {
      const carol = await w.tokenFor('hard-carol', ['publish:*']);
      const asset = heldAsset('/acme/revoked-mid/held.bin');
      const pending = w
        .push(carol.token, 'revoked-mid', {
          ...pushBody(w, 'revoked-mid', '1.0.0', 'acme/revoked-mid'),
          assets: [{ name: 'held.bin', url: asset.url }],
        })
        .then((r) => r);
      await asset.requested;
      const tokens = (await request(w.app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${carol.jwt}`).expect(200)).body
        .tokens;
      await request(w.app.url).delete(`/api/auth/me/tokens/${tokens[0].id}`).set('Authorization', `Bearer ${carol.jwt}`).expect(204);
      asset.release();
      expect((await pending).status).toBe(401);
      expect(await query(`SELECT 1 FROM plugin WHERE slug = 'revoked-mid'`)).toHaveLength(0);
    });

    it('a plugin transferred away while a push is being ingested does not get the release (403)', async () => {
      const dave = await w.tokenFor('hard-dave', ['publish:*']);
      const erin = await w.tokenFor('hard-erin', ['publish:*']);
      await w.push(dave.token, 'moved-mid', pushBody(w, 'moved-mid', '1.0.0', 'acme/moved-mid')).expect(201);
      const asset = heldAsset('/acme/moved-mid/held.bin');
      const pending = w
        .push(dave.token, 'moved-mid', {
          ...pushBody(w, 'moved-mid', '1.1.0', 'acme/moved-mid'),
          assets: [{ name: 'held.bin', url: asset.url }],
        })
        .then((r) => r);
      await asset.requested;
      await query(`UPDATE plugin_owner SET user_id = $1 WHERE plugin_id = (SELECT id FROM plugin WHERE slug = 'moved-mid')`, [erin.userId]);
      asset.release();
      expect((await pending).status).toBe(403);
      expect(await query(`SELECT r.version FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'moved-mid'`)).toEqual([
        { version: '1.0.0' },
      ]);
    });
  });
});

describe('publish: proof of repository control at claim', () => {
  let w: PublishWorld;
  const query = (sql: string, params: unknown[] = []) => w.app.database.dataSource.query(sql, params);
  const verified = async (slug: string) => (await query(`SELECT repo_verified FROM plugin WHERE slug = $1`, [slug]))[0]?.repo_verified;

  beforeAll(async () => {
    // Sign-in is configured for fakehub, so its users can prove what they administer.
    w = await publishWorld({}, { clientId: 'registry-app', clientSecret: 'registry-secret' });
    // GitHub's repository record as each caller sees it: alice administers alice/*, bob may only push.
    w.forge.route('GET', '/api/v3/repos/:owner/:repo', (req, res, params) => {
      const auth = req.headers.authorization;
      if (params.repo === 'broken') {
        res.writeHead(500);
        res.end();
        return;
      }
      if (params.repo === 'private' || (auth !== 'Bearer tok-alice' && auth !== 'Bearer tok-bob')) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"message":"Not Found"}');
        return;
      }
      const admin = auth === 'Bearer tok-alice' && params.owner === 'alice';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ full_name: `${params.owner}/${params.repo}`, permissions: { admin, maintain: false, push: true, pull: true } }),
      );
    });
  });
  afterAll(() => w?.close());

  it("claims a repository its forge says the claimer administers, asking with the claimer's own token", async () => {
    const alice = await w.linkedTokenFor('alice', 'tok-alice', ['publish:*']);
    await w.push(alice.token, 'proved', pushBody(w, 'proved', '1.0.0', 'alice/proved')).expect(201);
    expect(await verified('proved')).toBe(true);
    const asked = w.forge.requests.filter((r) => r.url === '/api/v3/repos/alice/proved');
    expect(asked.map((r) => r.headers.authorization)).toEqual(['Bearer tok-alice']);
  });

  it('refuses a claimer who can push but not administer (403, audited, nothing written)', async () => {
    const bob = await w.linkedTokenFor('bob', 'tok-bob', ['publish:*']);
    const res = await w.push(bob.token, 'stolen', pushBody(w, 'stolen', '1.0.0', 'alice/stolen')).expect(403);
    expect(res.body.detail).toContain('does not administer alice/stolen');
    expect(await w.audit('plugin.publish_denied')).toContainEqual(expect.objectContaining({ slug: 'stolen' }));
    expect(await verified('stolen')).toBeUndefined();
  });

  it('tells a claimer without a forge identity how to fix it', async () => {
    const carol = await w.tokenFor('carol', ['publish:*']);
    const res = await w.push(carol.token, 'unlinked', pushBody(w, 'unlinked', '1.0.0', 'alice/unlinked')).expect(403);
    expect(res.body.detail).toContain('sign in with fakehub');
    expect(res.body.detail).toContain('/auth/fakehub/login');
  });

  it('refuses a repository the claimer cannot see, and answers 503 when the forge fails', async () => {
    const alice = await w.linkedTokenFor('alice2', 'tok-alice', ['publish:*']);
    const hidden = await w.push(alice.token, 'hidden', pushBody(w, 'hidden', '1.0.0', 'alice/private')).expect(403);
    expect(hidden.body.detail).toContain('cannot see alice/private');
    await w.push(alice.token, 'broken', pushBody(w, 'broken', '1.0.0', 'alice/broken')).expect(503);
    expect(await verified('broken')).toBeUndefined();
  });

  it('lets a repository on a host that is not a forge instance be claimed, unverified', async () => {
    const carol = await w.tokenFor('carol2', ['publish:*']);
    const body = { ...pushBody(w, 'elsewhere', '1.0.0', 'x/elsewhere'), repoUrl: 'https://git.example.org/team/elsewhere' };
    await w.push(carol.token, 'elsewhere', body).expect(201);
    expect(await verified('elsewhere')).toBe(false);
  });

  it('claims without proof, unverified, when the operator turns the setting off', async () => {
    await query(`INSERT INTO app_setting (key, value, updated_at) VALUES ('publish.claim_requires_repo_access', '0'::jsonb, now())`);
    try {
      const bob = await w.linkedTokenFor('bob2', 'tok-bob', ['publish:*']);
      await w.push(bob.token, 'unproved', pushBody(w, 'unproved', '1.0.0', 'alice/unproved')).expect(201);
      expect(await verified('unproved')).toBe(false);
    } finally {
      await query(`DELETE FROM app_setting WHERE key = 'publish.claim_requires_repo_access'`);
    }
  });
});

describe.each([
  {
    type: 'gitlab' as const,
    apiPath: '/api/v4',
    route: '/api/v4/projects/:project',
    // GitLab answers a project read with the caller's own access levels (40 is Maintainer).
    document: (admin: boolean) => ({ id: 7, permissions: { project_access: { access_level: admin ? 40 : 30 }, group_access: null } }),
  },
  {
    type: 'gitea' as const,
    apiPath: '/api/v1',
    route: '/api/v1/repos/:owner/:repo',
    document: (admin: boolean) => ({ id: 7, permissions: { admin, push: true, pull: true } }),
  },
])('publish: proof of repository control on a $type forge', ({ type, apiPath, route, document }) => {
  let w: PublishWorld;

  beforeAll(async () => {
    w = await publishWorld({}, { type, apiPath, clientId: 'registry-app', clientSecret: 'registry-secret' });
    w.forge.route('GET', route, (req, res) => {
      const auth = req.headers.authorization;
      if (auth !== 'Bearer tok-admin' && auth !== 'Bearer tok-dev') {
        res.writeHead(401);
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(document(auth === 'Bearer tok-admin')));
    });
  });
  afterAll(() => w?.close());

  it('claims for a user the forge says administers the repository, and refuses one who may only push', async () => {
    const owner = await w.linkedTokenFor(`${type}-owner`, 'tok-admin', ['publish:*']);
    await w.push(owner.token, `${type}-proved`, pushBody(w, `${type}-proved`, '1.0.0', `team/${type}-proved`)).expect(201);
    const [row] = await w.app.database.dataSource.query(`SELECT repo_verified FROM plugin WHERE slug = $1`, [`${type}-proved`]);
    expect(row.repo_verified).toBe(true);

    const developer = await w.linkedTokenFor(`${type}-dev`, 'tok-dev', ['publish:*']);
    const refused = await w.push(developer.token, `${type}-taken`, pushBody(w, `${type}-taken`, '1.0.0', `team/${type}-taken`)).expect(403);
    expect(refused.body.detail).toContain(`does not administer team/${type}-taken`);
  });
});
