import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { FakeForge } from '../support/fake-forge';
import { FakeOidcIssuer, githubActionsClaims } from '../support/fake-oidc';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/**
 * Trusted publishing end to end: a fake CI OIDC issuer on loopback (discovery document and JWKS,
 * RSA and EC keys), the exchange for a short-lived publisher token, and the push it makes.
 */
describe('trusted publishing (OIDC)', () => {
  let issuer: FakeOidcIssuer;
  let otherIssuer: FakeOidcIssuer;
  let jwksElsewhere: FakeOidcIssuer;
  let gitlabIssuer: FakeOidcIssuer;
  // The GitLab instance labby's API, which the registry asks for project ids.
  let lab: FakeForge;
  let w: PublishWorld;
  let alice: { token: string; userId: string; jwt: string };
  let bob: { token: string; userId: string; jwt: string };
  let audience: string;
  let clockOffsetMs = 0;

  const claims = (fields: Record<string, unknown> = {}) => githubActionsClaims(issuer.url, audience, fields);
  const exchange = (token: string) => request(w.app.url).post('/api/publish/oidc/token').send({ token });
  const sql = (text: string, params: unknown[] = []) => w.app.database.dataSource.query(text, params);
  const body = (slug: string, version: string, repo = 'acme/tool') => ({
    manifest: manifestYaml({ name: slug, version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/${repo}/releases/${slug}-${version}.zip`, { size: 64 }) }],
  });
  /** Everything an exchange or push could have written. */
  const sideEffects = async () =>
    (
      await sql(`SELECT (SELECT count(*) FROM publisher_token)::int AS tokens, (SELECT count(*) FROM oidc_used_token)::int AS used,
                        (SELECT count(*) FROM audit_entry)::int AS audit, (SELECT count(*) FROM release)::int AS releases,
                        (SELECT count(*) FROM plugin)::int AS plugins, (SELECT count(*) FROM pending_publisher)::int AS pending,
                        (SELECT count(*) FROM trusted_publisher)::int AS trusted`)
    )[0];
  const session = (jwt: string) => ({
    post: (path: string, payload: object) => request(w.app.url).post(path).set('Authorization', `Bearer ${jwt}`).send(payload),
    get: (path: string) => request(w.app.url).get(path).set('Authorization', `Bearer ${jwt}`),
  });

  beforeAll(async () => {
    issuer = await new FakeOidcIssuer().start();
    await issuer.newKey('RS256');
    await issuer.newKey('ES256');
    otherIssuer = await new FakeOidcIssuer().start();
    await otherIssuer.newKey('RS256');
    // The other issuer's discovery is allow-listed, but it sends us to a key set on a loopback port that is not.
    jwksElsewhere = await new FakeOidcIssuer().start();
    otherIssuer.jwksUri = `${jwksElsewhere.url}/jwks`;
    gitlabIssuer = await new FakeOidcIssuer().start();
    await gitlabIssuer.newKey('ES256');
    lab = await new FakeForge().start();
    lab.repository('gitlab', 'group/sub/proj', { id: 77 });
    w = await publishWorld(
      {
        FETCH_ALLOW_HOSTS: `127.0.0.1:${issuer.port},127.0.0.1:${otherIssuer.port},127.0.0.1:${gitlabIssuer.port},${new URL(lab.url).host}`,
      },
      {
        oidcIssuer: issuer.url,
        extraForges: [
          {
            name: 'corp',
            type: 'gitlab',
            webUrl: 'https://git.corp.example',
            apiUrl: 'https://git.corp.example/api/v4',
            oidcIssuer: otherIssuer.url,
          },
          { name: 'labby', type: 'gitlab', webUrl: lab.url, apiUrl: `${lab.url}/api/v4`, oidcIssuer: gitlabIssuer.url },
        ],
      },
    );
    audience = w.app.config.baseUrl;
    const clock = w.app.app.get(Clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + clockOffsetMs));

    // The repository ids the forge answers; registrations never take one from the client.
    for (const [path, id] of [
      ['acme/tool', 1001],
      ['acme/other-tool', 1002],
      ['carol/c', 4004],
      ['bob/fresh', 3003],
      ['bob/tl', 6006],
      ['bob/race', 5005],
      ['bob/liar', 1015],
    ] as const) {
      w.forge.repository('github', path, { id });
    }
    alice = await w.tokenFor('alice', ['publish:*', 'yank:*']);
    bob = await w.tokenFor('bob', ['publish:*']);
    for (const [slug, repo] of [
      ['tool', 'acme/tool'],
      ['other-tool', 'acme/other-tool'],
    ]) {
      await w.push(alice.token, slug, { ...body(slug, '1.0.0', repo), repoUrl: `${w.forge.url}/${repo}` }).expect(201);
    }
    await session(alice.jwt)
      .post('/api/plugins/tool/trusted-publishers', {
        forge: 'fakehub',
        repository: 'acme/tool',
        workflow: '.github/workflows/release.yml',
        ref: 'refs/tags/v*',
        environment: 'release',
      })
      .expect(201);
  });
  afterEach(() => {
    clockOffsetMs = 0;
  });
  afterAll(async () => {
    await w?.close();
    await Promise.all([issuer?.stop(), otherIssuer?.stop(), jwksElsewhere?.stop(), gitlabIssuer?.stop(), lab?.stop()]);
  });

  it('exchanges a matching ID token for a 15-minute publisher token for that plugin only, which publishes it', async () => {
    const before = Date.now();
    const res = await exchange(await issuer.sign(claims())).expect(201);
    expect(res.body).toEqual({
      token: expect.stringMatching(/^prt_[0-9A-Za-z]{40}$/),
      expiresAt: expect.any(Number),
      scopes: ['publish:tool'],
    });
    expect(res.body.expiresAt).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(res.body.expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    const [row] = await sql(`SELECT user_id, scopes, trusted, token_sha256 FROM publisher_token WHERE prefix = $1`, [
      res.body.token.slice(0, 12),
    ]);
    expect(row.user_id).toBe(alice.userId);
    expect(Buffer.from(row.token_sha256).toString('utf8')).not.toContain(res.body.token);
    expect(row.trusted).toMatchObject({
      forge: 'fakehub',
      repository: 'acme/tool',
      repositoryId: '1001',
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
      environment: 'release',
      pending: null,
    });

    const pushed = await w.push(res.body.token, 'tool', body('tool', '1.1.0')).expect(201);
    expect(pushed.body).toMatchObject({ slug: 'tool', version: '1.1.0', claimed: false });

    // The release and its audit entry say it came from the repository's CI; a token push says token.
    const trusted = {
      kind: 'trusted',
      forge: 'fakehub',
      repository: 'acme/tool',
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
    };
    expect((await request(w.app.url).get('/api/plugins/tool/releases/1.1.0').expect(200)).body.publishedBy).toEqual(trusted);
    expect((await request(w.app.url).get('/api/plugins/tool/releases/1.0.0').expect(200)).body.publishedBy).toEqual({ kind: 'token' });
    const detail = await request(w.app.url).get('/api/plugins/tool').expect(200);
    expect(detail.body.releases.map((r: { version: string; publishedBy: unknown }) => [r.version, r.publishedBy])).toEqual([
      ['1.1.0', trusted],
      ['1.0.0', { kind: 'token' }],
    ]);
    const [audit] = await sql(
      `SELECT details, actor_token_id FROM audit_entry WHERE action = 'plugin.publish' AND slug = 'tool' AND details->>'version' = '1.1.0'`,
    );
    expect(audit.details.publishedBy).toEqual(trusted);
    const [{ id: tokenId }] = await sql(`SELECT id FROM publisher_token WHERE prefix = $1`, [res.body.token.slice(0, 12)]);
    expect(audit.actor_token_id).toBe(tokenId);
  });

  it('verifies ES256 tokens too', async () => {
    await exchange(await issuer.sign(claims(), { key: issuer.published[1] })).expect(201);
  });

  it.each([
    [
      'another repository',
      { repository: 'acme/other', repository_id: '2002', job_workflow_ref: 'acme/other/.github/workflows/release.yml@refs/tags/v1.0.0' },
    ],
    ['a re-created repository (same path, new id)', { repository_id: '9999' }],
    ['another workflow', { job_workflow_ref: 'acme/tool/.github/workflows/ci.yml@refs/tags/v1.0.0' }],
    ['a ref outside the pattern', { ref: 'refs/heads/main', job_workflow_ref: 'acme/tool/.github/workflows/release.yml@refs/heads/main' }],
    ['another environment', { environment: 'staging' }],
    ['no environment', { environment: undefined }],
  ])('answers 403 with nothing written for %s', async (_label, fields) => {
    const token = await issuer.sign(claims(fields));
    const before = await sideEffects();
    const res = await exchange(token).expect(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.type).toMatch(/\/problems\/no-trusted-publisher$/);
    expect(await sideEffects()).toEqual(before);
  });

  it.each<[string, () => Promise<string>]>([
    ['the wrong audience', () => issuer.sign(claims({ aud: 'https://another-registry.example' }))],
    [
      'an expired token',
      () =>
        issuer.sign(
          claims({
            iat: Math.floor(Date.now() / 1000) - 900,
            nbf: Math.floor(Date.now() / 1000) - 900,
            exp: Math.floor(Date.now() / 1000) - 120,
          }),
        ),
    ],
    ['a token not yet valid', () => issuer.sign(claims({ nbf: Math.floor(Date.now() / 1000) + 300 }))],
    ['a token issued in the future', () => issuer.sign(claims({ iat: Math.floor(Date.now() / 1000) + 300 }))],
    ['a token without jti', () => issuer.sign(claims({ jti: undefined }))],
    ['an unknown issuer', () => issuer.sign(claims({ iss: 'https://token.evil.example' }))],
    ['alg none', async () => issuer.unsigned(claims())],
    ['HS256 keyed with the public key bytes', () => issuer.hmacWithPublicKey(claims())],
    ['a key that is not in the JWKS', async () => issuer.sign(claims(), { key: await issuer.newKey('RS256', false) })],
    [
      'a published kid over another key',
      async () => issuer.sign(claims(), { key: await issuer.newKey('RS256', false), kid: issuer.published[0].kid }),
    ],
    [
      'a JWKS on a loopback address that is not allow-listed',
      () => otherIssuer.sign({ ...claims(), iss: otherIssuer.url, project_id: '1', project_path: 'g/p' }),
    ],
    ['garbage', async () => 'not.a.jwt'],
  ])('answers 401 with nothing written for %s', async (_label, make) => {
    const token = await make();
    const before = await sideEffects();
    const res = await exchange(token).expect(401);
    expect(res.body.type).toMatch(/\/problems\/oidc-token-invalid$/);
    expect(await sideEffects()).toEqual(before);
  });

  it('never reads a key set from an address that is not allow-listed', () => {
    expect(otherIssuer.requests).toContain('/.well-known/openid-configuration');
    expect(jwksElsewhere.requests).toEqual([]);
  });

  it('refuses a replayed jti, with nothing written the second time', async () => {
    const token = await issuer.sign(claims());
    await exchange(token).expect(201);
    const before = await sideEffects();
    const again = await exchange(token).expect(401);
    expect(again.body.type).toMatch(/\/problems\/oidc-token-replayed$/);
    expect(await sideEffects()).toEqual(before);
  });

  it('reads the JWKS again for an unknown kid (a rotated key), at most every 30 s', async () => {
    const rotated = await issuer.newKey('ES256');
    const reads = () => issuer.requests.filter((path) => path === '/jwks').length;
    const start = reads();
    await exchange(await issuer.sign(claims(), { key: rotated })).expect(401);
    expect(reads()).toBe(start);
    clockOffsetMs = 31_000;
    await exchange(await issuer.sign(claims(), { key: rotated })).expect(201);
    expect(reads()).toBe(start + 1);
  });

  describe('the short-lived token', () => {
    let token: string;
    beforeAll(async () => {
      token = (await exchange(await issuer.sign(claims())).expect(201)).body.token;
    });

    it('cannot publish another plugin of the same owner', async () => {
      const res = await w.push(token, 'other-tool', body('other-tool', '2.0.0', 'acme/other-tool')).expect(403);
      expect(res.body.type).toMatch(/\/problems\/forbidden$/);
    });

    it('cannot claim a new slug', async () => {
      await w.push(token, 'brand-new', { ...body('brand-new', '1.0.0'), repoUrl: `${w.forge.url}/acme/brand-new` }).expect(403);
      expect(await sql(`SELECT 1 FROM plugin WHERE slug = 'brand-new'`)).toEqual([]);
    });

    it('cannot yank', async () => {
      await request(w.app.url)
        .post('/api/publish/tool/yank')
        .set('Authorization', `Bearer ${token}`)
        .send({ version: '1.0.0' })
        .expect(403);
    });

    it('cannot create or list tokens', async () => {
      await request(w.app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'x', scopes: ['publish:*'] })
        .expect(401);
      await request(w.app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${token}`).expect(401);
    });

    it('cannot manage trusted publishers', async () => {
      await request(w.app.url)
        .post('/api/plugins/tool/trusted-publishers')
        .set('Authorization', `Bearer ${token}`)
        .send({ forge: 'fakehub', repository: 'x/y', repositoryId: '1' })
        .expect(401);
    });

    it('expires after 15 minutes', async () => {
      clockOffsetMs = 15 * 60_000 + 1_000;
      await w.push(token, 'tool', body('tool', '1.9.0')).expect(401);
      expect(
        await sql(`SELECT 1 FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'tool' AND r.version = '1.9.0'`),
      ).toEqual([]);
    });
  });

  it('yanks when the trusted publisher allows it', async () => {
    await session(alice.jwt)
      .post('/api/plugins/other-tool/trusted-publishers', { forge: 'fakehub', repository: 'acme/other-tool', allowYank: true })
      .expect(201);
    const res = await exchange(await issuer.sign(claims({ repository: 'acme/other-tool', repository_id: '1002' }))).expect(201);
    expect(res.body.scopes).toEqual(['publish:other-tool', 'yank:other-tool']);
    await request(w.app.url)
      .post('/api/publish/other-tool/yank')
      .set('Authorization', `Bearer ${res.body.token}`)
      .send({ version: '1.0.0' })
      .expect(200);
  });

  it('stops matching once the owner who added it is disabled', async () => {
    const carol = await w.tokenFor('carol', ['publish:*']);
    await w.push(carol.token, 'carols', { ...body('carols', '1.0.0', 'carol/c'), repoUrl: `${w.forge.url}/carol/c` }).expect(201);
    await session(carol.jwt).post('/api/plugins/carols/trusted-publishers', { forge: 'fakehub', repository: 'carol/c' }).expect(201);
    const token = () => issuer.sign(claims({ repository: 'carol/c', repository_id: '4004' }));
    await exchange(await token()).expect(201);
    await sql(`UPDATE user_account SET disabled_at = now() WHERE id = $1`, [carol.userId]);
    await exchange(await token()).expect(403);
  });

  it('maps GitLab CI claims (project id and path, CI config path, ref and ref_type) on a GitLab instance', async () => {
    await session(bob.jwt)
      .post('/api/auth/me/pending-publishers', {
        slug: 'lab-plugin',
        forge: 'labby',
        repository: 'group/sub/proj',
        workflow: '.gitlab-ci.yml',
        ref: 'refs/tags/v*',
        environment: 'production',
      })
      .expect(201);
    const now = Math.floor(Date.now() / 1000);
    const gitlab = (fields: Record<string, unknown> = {}) => ({
      iss: gitlabIssuer.url,
      aud: audience,
      sub: 'project_path:group/sub/proj:ref_type:tag:ref:v1.0.0',
      jti: `lab-${Math.random()}`,
      iat: now,
      nbf: now,
      exp: now + 300,
      project_id: '77',
      project_path: 'group/sub/proj',
      ci_config_ref_uri: 'lab.example/group/sub/proj//.gitlab-ci.yml@refs/tags/v1.0.0',
      ref: 'v1.0.0',
      ref_type: 'tag',
      environment: 'production',
      ...fields,
    });
    const res = await exchange(await gitlabIssuer.sign(gitlab())).expect(201);
    expect(res.body.scopes).toEqual(['publish:lab-plugin']);
    await exchange(await gitlabIssuer.sign(gitlab({ ref: 'main', ref_type: 'branch' }))).expect(403);
    await exchange(await gitlabIssuer.sign(gitlab({ project_id: '78' }))).expect(403);
    // A GitHub-shaped token from the GitLab issuer names no project.
    await exchange(await gitlabIssuer.sign({ ...claims(), iss: gitlabIssuer.url })).expect(401);
  });

  describe('pending publishers', () => {
    const bobClaims = (fields: Record<string, unknown> = {}) =>
      claims({
        repository: 'bob/fresh',
        repository_id: '3003',
        job_workflow_ref: 'bob/fresh/.github/workflows/release.yml@refs/tags/v1.0.0',
        ...fields,
      });

    beforeAll(async () => {
      await session(bob.jwt)
        .post('/api/auth/me/pending-publishers', {
          slug: 'fresh-plugin',
          forge: 'fakehub',
          repository: 'bob/fresh',
          workflow: '.github/workflows/release.yml',
        })
        .expect(201);
    });

    it('matches the repository id the forge says, never one the registrant sent', async () => {
      const before = await sideEffects();
      // bob/liar is 1015 on the forge: an entry for 988669 would let a CI job of that id claim the slug.
      const refused = await session(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'liar-plugin', forge: 'fakehub', repository: 'bob/liar', repositoryId: '988669' })
        .expect(422);
      expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(['/repositoryId']);
      const liar = (id: string) =>
        issuer.sign(
          claims({
            repository: 'bob/liar',
            repository_id: id,
            job_workflow_ref: 'bob/liar/.github/workflows/release.yml@refs/tags/v1.0.0',
          }),
        );
      await exchange(await liar('988669')).expect(403);
      expect(await sideEffects()).toEqual(before);

      const registered = await session(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'liar-plugin', forge: 'fakehub', repository: 'bob/liar' })
        .expect(201);
      expect(registered.body.repositoryId).toBe('1015');
      await exchange(await liar('988669')).expect(403);
      expect((await exchange(await liar('1015')).expect(201)).body.scopes).toEqual(['publish:liar-plugin']);
    });

    it('refuses another repository, or the same path with another id', async () => {
      const before = await sideEffects();
      await exchange(await issuer.sign(bobClaims({ repository: 'bob/other', repository_id: '3004' }))).expect(403);
      await exchange(await issuer.sign(bobClaims({ repository_id: '3999' }))).expect(403);
      expect(await sideEffects()).toEqual(before);
    });

    it('claims the slug once, for the user who registered it, anchored to the repository, and becomes its trusted publisher', async () => {
      const first = await exchange(await issuer.sign(bobClaims())).expect(201);
      const second = await exchange(await issuer.sign(bobClaims())).expect(201);
      expect(first.body.scopes).toEqual(['publish:fresh-plugin']);

      // Not another slug: the pending publisher names one.
      await w
        .push(first.body.token, 'fresh-other', { ...body('fresh-other', '1.0.0', 'bob/fresh'), repoUrl: `${w.forge.url}/bob/fresh` })
        .expect(403);

      const claimed = await w.push(first.body.token, 'fresh-plugin', body('fresh-plugin', '1.0.0', 'bob/fresh')).expect(201);
      expect(claimed.body).toMatchObject({ slug: 'fresh-plugin', claimed: true });
      const [plugin] = await sql(`SELECT id, repo_url FROM plugin WHERE slug = 'fresh-plugin'`);
      expect(plugin.repo_url).toBe(`${w.forge.url}/bob/fresh`);
      expect(await sql(`SELECT user_id FROM plugin_owner WHERE plugin_id = $1`, [plugin.id])).toEqual([{ user_id: bob.userId }]);
      expect(await sql(`SELECT 1 FROM pending_publisher WHERE slug = 'fresh-plugin'`)).toEqual([]);
      expect(
        await sql(`SELECT repository_path, repository_id, workflow, created_by FROM trusted_publisher WHERE plugin_id = $1`, [plugin.id]),
      ).toEqual([
        { repository_path: 'bob/fresh', repository_id: '3003', workflow: '.github/workflows/release.yml', created_by: bob.userId },
      ]);

      // The second token minted from the entry can no longer claim; as bob owns the plugin now, it updates it.
      expect((await w.push(second.body.token, 'fresh-plugin', body('fresh-plugin', '1.1.0', 'bob/fresh')).expect(201)).body.claimed).toBe(
        false,
      );
      // Later exchanges match the trusted publisher it became.
      const later = await exchange(await issuer.sign(bobClaims())).expect(201);
      expect(later.body.scopes).toEqual(['publish:fresh-plugin']);
      const [row] = await sql(`SELECT trusted FROM publisher_token WHERE prefix = $1`, [later.body.token.slice(0, 12)]);
      expect(row.trusted.pending).toBeNull();
    });

    it('is not used once its slug was taken by someone else', async () => {
      await session(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'taken-later', forge: 'fakehub', repository: 'bob/tl' })
        .expect(201);
      await w
        .push(alice.token, 'taken-later', { ...body('taken-later', '1.0.0', 'alice/tl'), repoUrl: `${w.forge.url}/alice/tl` })
        .expect(201);
      const before = await sideEffects();
      await exchange(await issuer.sign(claims({ repository: 'bob/tl', repository_id: '6006' }))).expect(403);
      expect(await sideEffects()).toEqual(before);
    });

    it('refuses the claim at use when the repository was claimed by another slug meanwhile (409), leaving the entry', async () => {
      await session(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'race-plugin', forge: 'fakehub', repository: 'bob/race' })
        .expect(201);
      const minted = await exchange(await issuer.sign(claims({ repository: 'bob/race', repository_id: '5005' }))).expect(201);
      await w
        .push(alice.token, 'race-other', { ...body('race-other', '1.0.0', 'bob/race'), repoUrl: `${w.forge.url}/bob/race` })
        .expect(201);
      const before = await sideEffects();
      const res = await w.push(minted.body.token, 'race-plugin', body('race-plugin', '1.0.0', 'bob/race')).expect(409);
      expect(res.body.type).toMatch(/\/problems\/repo-claimed$/);
      const after = await sideEffects();
      // Only the spec's conflict audit entry is written.
      expect({ ...after, audit: after.audit - 1 }).toEqual(before);
      expect(await sql(`SELECT 1 FROM plugin WHERE slug = 'race-plugin'`)).toEqual([]);
      expect(await sql(`SELECT 1 FROM pending_publisher WHERE slug = 'race-plugin'`)).toHaveLength(1);
    });
  });
});
