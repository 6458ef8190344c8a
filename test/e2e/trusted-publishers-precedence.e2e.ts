import request from 'supertest';
import { FakeOidcIssuer, githubActionsClaims } from '../support/fake-oidc';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/**
 * Pending publishers on a forge instance users sign in with: the same proof of repository control
 * as a claim, and the repository owner's registration first, over an earlier one by somebody else.
 */
describe('pending publishers: proof of repository control, and the repository owner first', () => {
  let issuer: FakeOidcIssuer;
  let w: PublishWorld;
  type User = { token: string; userId: string; jwt: string };
  let owner: User;
  let rival: User;
  let developer: User;
  let squatter: User;

  const sql = (text: string, params: unknown[] = []) => w.app.database.dataSource.query(text, params);
  const register = (user: User, body: object) =>
    request(w.app.url).post('/api/auth/me/pending-publishers').set('Authorization', `Bearer ${user.jwt}`).send(body);
  const listing = async (user: User) =>
    (await request(w.app.url).get('/api/auth/me/pending-publishers').set('Authorization', `Bearer ${user.jwt}`).expect(200)).body
      .pendingPublishers as Record<string, unknown>[];
  const written = async () =>
    (
      await sql(`SELECT (SELECT count(*) FROM pending_publisher)::int AS pending, (SELECT count(*) FROM pending_publisher WHERE status = 'active')::int AS active,
                        (SELECT count(*) FROM audit_entry WHERE action LIKE 'trusted_publisher.%')::int AS audit`)
    )[0];
  const requireProof = async (on: boolean) => {
    if (on) await sql(`DELETE FROM app_setting WHERE key = 'publish.claim_requires_repo_access'`);
    else await sql(`INSERT INTO app_setting (key, value, updated_at) VALUES ('publish.claim_requires_repo_access', '0'::jsonb, now())`);
  };

  beforeAll(async () => {
    issuer = await new FakeOidcIssuer().start();
    await issuer.newKey('RS256');
    // Sign-in is configured for fakehub, so its users can prove what they administer.
    w = await publishWorld(
      { FETCH_ALLOW_HOSTS: `127.0.0.1:${issuer.port}` },
      { clientId: 'registry-app', clientSecret: 'registry-secret', oidcIssuer: issuer.url },
    );
    owner = await w.linkedTokenFor('owner', 'tok-owner', ['publish:*']);
    rival = await w.linkedTokenFor('rival', 'tok-rival', ['publish:*']);
    developer = await w.linkedTokenFor('developer', 'tok-dev', ['publish:*']);
    squatter = await w.tokenFor('squatter', ['publish:*']);
    w.forge.repository('github', 'owner/proved', { id: 2001, admins: ['tok-owner'], members: ['tok-dev'] });
    w.forge.repository('github', 'owner/contested', { id: 2002, admins: ['tok-owner'] });
    w.forge.repository('github', 'owner/contested-too', { id: 2005, admins: ['tok-owner'] });
    w.forge.repository('github', 'owner/shared', { id: 2003, admins: ['tok-owner', 'tok-rival'] });
    w.forge.repository('github', 'owner/private', { id: 2004, admins: ['tok-owner'], private: true });
    w.forge.repository('github', 'owner/ci-target', { id: 2006, admins: ['tok-owner'] });
  });
  afterAll(async () => {
    await w?.close();
    await issuer?.stop();
  });

  it('needs the same proof of repository control as a claim: 403 with nothing written for a user without a forge identity or who may only push', async () => {
    const before = await written();
    const unlinked = await register(squatter, { slug: 'proved-thing', forge: 'fakehub', repository: 'owner/proved' }).expect(403);
    expect(unlinked.body.detail).toContain('sign in with fakehub');
    const pusher = await register(developer, { slug: 'proved-thing', forge: 'fakehub', repository: 'owner/proved' }).expect(403);
    expect(pusher.body.detail).toContain('does not administer owner/proved');
    expect(await written()).toEqual(before);

    const asked = w.forge.requests.length;
    const res = await register(owner, { slug: 'proved-thing', forge: 'fakehub', repository: 'owner/proved' }).expect(201);
    expect(res.body).toMatchObject({ repositoryId: '2001', status: 'active', statusReason: null });
    expect(await sql(`SELECT repo_verified, repository_id FROM pending_publisher WHERE slug = 'proved-thing'`)).toEqual([
      { repo_verified: true, repository_id: '2001' },
    ]);
    // One read of the repository record, with the registrant's own token: it proves control and gives the id.
    expect(w.forge.requests.slice(asked).map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/api/v3/repos/owner/proved', 'Bearer tok-owner'],
    ]);
  });

  it("reads the id of a private repository from the registrant's own record of it", async () => {
    const res = await register(owner, { slug: 'private-thing', forge: 'fakehub', repository: 'owner/private' }).expect(201);
    expect(res.body.repositoryId).toBe('2004');
  });

  it("lets the repository owner's registration win over an earlier unproven one by somebody else, audited, the loser told why", async () => {
    await requireProof(false);
    try {
      await register(squatter, { slug: 'squat-slug', forge: 'fakehub', repository: 'owner/contested' }).expect(201);
    } finally {
      await requireProof(true);
    }
    const [squat] = await sql(`SELECT id, repo_verified FROM pending_publisher WHERE slug = 'squat-slug'`);
    expect(squat.repo_verified).toBe(false);

    const won = await register(owner, { slug: 'real-slug', forge: 'fakehub', repository: 'owner/contested' }).expect(201);
    expect(won.body).toMatchObject({ slug: 'real-slug', repositoryId: '2002', status: 'active' });

    // The loser sees why in their own listing; the entry no longer holds the slug or the repository.
    expect(await listing(squatter)).toEqual([
      expect.objectContaining({
        id: squat.id,
        slug: 'squat-slug',
        status: 'displaced',
        statusReason: expect.stringContaining('proved that they administer owner/contested'),
        statusChangedAt: expect.any(Number),
      }),
    ]);
    expect(await sql(`SELECT slug, status FROM pending_publisher WHERE repository_id = '2002' ORDER BY created_at`)).toEqual([
      { slug: 'squat-slug', status: 'displaced' },
      { slug: 'real-slug', status: 'active' },
    ]);
    const audit = await sql(`SELECT slug, actor_user_id, details FROM audit_entry WHERE action = 'trusted_publisher.displace'`);
    expect(audit).toEqual([
      {
        slug: 'squat-slug',
        actor_user_id: owner.userId,
        details: expect.objectContaining({
          pending: true,
          id: squat.id,
          repositoryId: '2002',
          userId: squatter.userId,
          displacedBy: won.body.id,
          reason: expect.any(String),
        }),
      },
    ]);

    // The repository's CI now publishes for its owner, into the owner's slug.
    const claims = githubActionsClaims(issuer.url, w.app.config.baseUrl, {
      repository: 'owner/contested',
      repository_id: '2002',
      environment: undefined,
    });
    const minted = await request(w.app.url)
      .post('/api/publish/oidc/token')
      .send({ token: await issuer.sign(claims) })
      .expect(201);
    expect(minted.body.scopes).toEqual(['publish:real-slug']);
    expect(await sql(`SELECT user_id FROM publisher_token WHERE prefix = $1`, [minted.body.token.slice(0, 12)])).toEqual([
      { user_id: owner.userId },
    ]);

    // The loser cannot take it back, and may remove the displaced entry.
    const before = await written();
    await register(squatter, { slug: 'squat-again', forge: 'fakehub', repository: 'owner/contested' }).expect(403);
    expect(await written()).toEqual(before);
    await request(w.app.url)
      .delete(`/api/auth/me/pending-publishers/${squat.id}`)
      .set('Authorization', `Bearer ${squatter.jwt}`)
      .expect(204);
    expect(await listing(squatter)).toEqual([]);
  });

  it('proves the owner even when the operator does not require proof, to let them take the repository over', async () => {
    await requireProof(false);
    try {
      await register(squatter, { slug: 'squat-too', forge: 'fakehub', repository: 'owner/contested-too' }).expect(201);
      const before = await written();
      // Somebody who cannot prove control does not take it over.
      const refused = await register(developer, { slug: 'dev-too', forge: 'fakehub', repository: 'owner/contested-too' }).expect(409);
      expect(refused.body.type).toMatch(/\/problems\/pending-publisher-exists$/);
      expect(refused.body.detail).toContain('prove');
      expect(await written()).toEqual(before);
      await register(owner, { slug: 'owner-too', forge: 'fakehub', repository: 'owner/contested-too' }).expect(201);
    } finally {
      await requireProof(true);
    }
    expect(await sql(`SELECT slug, status, repo_verified FROM pending_publisher WHERE repository_id = '2005' ORDER BY created_at`)).toEqual(
      [
        { slug: 'squat-too', status: 'displaced', repo_verified: false },
        { slug: 'owner-too', status: 'active', repo_verified: true },
      ],
    );
    expect(
      (await sql(`SELECT slug FROM audit_entry WHERE action = 'trusted_publisher.displace' ORDER BY created_at`)).map(
        (r: { slug: string }) => r.slug,
      ),
    ).toEqual(['squat-slug', 'squat-too']);
  });

  it("gives the repository's CI token to its owner, not to another user whose plugin named the repository earlier", async () => {
    // Mallory owns a plugin (anchored elsewhere, unproven) and names owner/ci-target as its trusted publisher.
    const mallory = await w.tokenFor('mallory', ['publish:*']);
    const asset = w.forge.asset('/mallory/releases/mallory-plugin.zip', { size: 64 });
    await w
      .push(mallory.token, 'mallory-plugin', {
        manifest: manifestYaml({ name: 'mallory-plugin', version: '1.0.0' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'mallory-plugin.zip', url: asset }],
        repoUrl: 'https://git.example.org/mallory/plugin',
      })
      .expect(201);
    await request(w.app.url)
      .post('/api/plugins/mallory-plugin/trusted-publishers')
      .set('Authorization', `Bearer ${mallory.jwt}`)
      .send({ forge: 'fakehub', repository: 'owner/ci-target' })
      .expect(201);
    const ciToken = () =>
      issuer.sign(githubActionsClaims(issuer.url, w.app.config.baseUrl, { repository: 'owner/ci-target', repository_id: '2006' }));
    const exchange = async () =>
      (
        await request(w.app.url)
          .post('/api/publish/oidc/token')
          .send({ token: await ciToken() })
          .expect(201)
      ).body;
    expect((await exchange()).scopes).toEqual(['publish:mallory-plugin']);

    await register(owner, { slug: 'ci-target', forge: 'fakehub', repository: 'owner/ci-target' }).expect(201);
    const minted = await exchange();
    expect(minted.scopes).toEqual(['publish:ci-target']);
    expect(await sql(`SELECT user_id FROM publisher_token WHERE prefix = $1`, [minted.token.slice(0, 12)])).toEqual([
      { user_id: owner.userId },
    ]);
  });

  it('keeps an earlier registration that proved control too: 409 for the later one, nothing written', async () => {
    await register(owner, { slug: 'shared-one', forge: 'fakehub', repository: 'owner/shared' }).expect(201);
    const before = await written();
    const res = await register(rival, { slug: 'shared-two', forge: 'fakehub', repository: 'owner/shared' }).expect(409);
    expect(res.body.type).toMatch(/\/problems\/pending-publisher-exists$/);
    expect(await written()).toEqual(before);
    expect(await sql(`SELECT slug, status FROM pending_publisher WHERE repository_id = '2003'`)).toEqual([
      { slug: 'shared-one', status: 'active' },
    ]);
  });
});
