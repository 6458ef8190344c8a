import request from 'supertest';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/**
 * Managing trusted publishers (owners) and pending publishers (signed-in users): the repository id
 * always comes from the forge. Proof of repository control and precedence are in
 * trusted-publishers-precedence.e2e.ts; the OIDC exchange is trusted-publishing.e2e.ts.
 */
describe('trusted and pending publishers', () => {
  let w: PublishWorld;
  // A second forge server hosting a GitLab instance (under /lab) and a Gitea one (under /tea).
  let other: FakeForge;
  let alice: { token: string; userId: string; jwt: string };
  let bob: { token: string; userId: string; jwt: string };

  const sql = (text: string, params: unknown[] = []) => w.app.database.dataSource.query(text, params);
  const as = (jwt: string) => ({
    get: (path: string) => request(w.app.url).get(path).set('Authorization', `Bearer ${jwt}`),
    post: (path: string, body: object) => request(w.app.url).post(path).set('Authorization', `Bearer ${jwt}`).send(body),
    delete: (path: string) => request(w.app.url).delete(path).set('Authorization', `Bearer ${jwt}`),
  });
  /** Everything a registration could write. */
  const written = async () =>
    (
      await sql(`SELECT (SELECT count(*) FROM trusted_publisher)::int AS trusted, (SELECT count(*) FROM pending_publisher)::int AS pending,
                        (SELECT count(*) FROM audit_entry WHERE action LIKE 'trusted_publisher.%')::int AS audit`)
    )[0];

  async function publish(slug: string, repo: string) {
    const asset = w.forge.asset(`/${repo}/releases/${slug}.zip`, { size: 100 });
    await w
      .push(alice.token, slug, {
        manifest: manifestYaml({ name: slug, version: '1.0.0' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: asset }],
        repoUrl: `${w.forge.url}/${repo}`,
      })
      .expect(201);
  }

  beforeAll(async () => {
    other = await new FakeForge().start();
    w = await publishWorld(
      { FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(other.url).port}` },
      {
        oidcIssuer: 'https://issuer.example',
        extraForges: [
          { name: 'plain', type: 'gitea', webUrl: 'https://plain.example', apiUrl: 'https://plain.example/api/v1' },
          {
            name: 'fakelab',
            type: 'gitlab',
            webUrl: `${other.url}/lab`,
            apiUrl: `${other.url}/lab/api/v4`,
            oidcIssuer: 'https://lab-issuer.example',
          },
          {
            name: 'faketea',
            type: 'gitea',
            webUrl: `${other.url}/tea`,
            apiUrl: `${other.url}/tea/api/v1`,
            oidcIssuer: 'https://tea-issuer.example',
          },
        ],
      },
    );
    alice = await w.tokenFor('alice', ['publish:*']);
    bob = await w.tokenFor('bob', ['publish:*']);
    for (const [path, id] of [
      ['acme/tool', 1001],
      ['acme/real', 1015],
      ['bob/future', 555],
      ['bob/other', 600],
      ['alice/held', 700],
      ['bob/held', 701],
    ] as const) {
      w.forge.repository('github', path, { id });
    }
    w.forge.repository('github', 'acme/old-name', { id: 1020, currentPath: 'acme/new-name' });
    w.forge.route('GET', '/api/v3/repos/acme/broken', (_req, res) => void res.writeHead(500).end());
    other.repository('gitlab', 'group/sub/proj.js', { id: 4242 }, '/lab/api/v4');
    other.repository('gitea', 'team/thing', { id: 99 }, '/tea/api/v1');
    await publish('tool', 'acme/tool');
  });
  afterAll(async () => {
    await w?.close();
    await other?.stop();
  });

  it('lets an owner add, list and remove trusted publishers, reading the repository id from the forge, and audits both', async () => {
    const added = await as(alice.jwt)
      .post('/api/plugins/tool/trusted-publishers', {
        forge: 'fakehub',
        repository: 'acme/tool',
        workflow: '.github/workflows/release.yml',
        ref: 'refs/tags/v*',
      })
      .expect(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      forge: 'fakehub',
      repository: 'acme/tool',
      repositoryId: '1001',
      repoUrl: `${w.forge.url}/acme/tool`,
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v*',
      environment: null,
      allowYank: false,
      createdAt: expect.any(Number),
    });
    // A client may still send the id; one that agrees with the forge is accepted.
    const second = await as(alice.jwt)
      .post('/api/plugins/tool/trusted-publishers', {
        forge: 'fakehub',
        repository: 'acme/tool',
        repositoryId: '1001',
        environment: 'release',
      })
      .expect(201);
    expect(
      (await as(alice.jwt).get('/api/plugins/tool/trusted-publishers').expect(200)).body.trustedPublishers.map((p: { id: string }) => p.id),
    ).toEqual([added.body.id, second.body.id]);

    await as(alice.jwt).delete(`/api/plugins/tool/trusted-publishers/${second.body.id}`).expect(204);
    await as(alice.jwt).delete(`/api/plugins/tool/trusted-publishers/${second.body.id}`).expect(404);
    expect((await as(alice.jwt).get('/api/plugins/tool/trusted-publishers').expect(200)).body.trustedPublishers).toHaveLength(1);
    const audit = await sql(
      `SELECT action, details FROM audit_entry WHERE action LIKE 'trusted_publisher.%' AND slug = 'tool' ORDER BY created_at`,
    );
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      'trusted_publisher.add',
      'trusted_publisher.add',
      'trusted_publisher.remove',
    ]);
    expect(audit[2].details).toMatchObject({ id: second.body.id, repositoryId: '1001', environment: 'release' });
  });

  it('lets only owners register a trusted publisher: 403 for another user, with nothing written and the forge not asked', async () => {
    const before = await written();
    const asked = w.forge.requests.length;
    const res = await as(bob.jwt).post('/api/plugins/tool/trusted-publishers', { forge: 'fakehub', repository: 'bob/other' }).expect(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).toContain('only the owners of "tool"');
    expect(await written()).toEqual(before);
    expect(w.forge.requests.length).toBe(asked);
  });

  it('refuses non-owners (403), unknown plugins (404), anonymous callers (401) and a publisher token (401)', async () => {
    await as(bob.jwt).get('/api/plugins/tool/trusted-publishers').expect(403);
    await as(alice.jwt).get('/api/plugins/nothing-here/trusted-publishers').expect(404);
    await request(w.app.url).get('/api/plugins/tool/trusted-publishers').expect(401);
    await request(w.app.url).get('/api/plugins/tool/trusted-publishers').set('Authorization', `Bearer ${alice.token}`).expect(401);
    const before = await written();
    await request(w.app.url)
      .post('/api/plugins/tool/trusted-publishers')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ forge: 'fakehub', repository: 'acme/tool' })
      .expect(401);
    expect(await written()).toEqual(before);
  });

  it.each([
    [{ forge: 'nope', repository: 'a/b' }, '/forge'],
    [{ forge: 'plain', repository: 'a/b' }, '/forge'],
    [{ forge: 'fakehub', repository: 'a/b/c' }, '/repository'],
    [{ forge: 'fakehub', repository: 'a/b', repositoryId: 'abc' }, '/repositoryId'],
    [{ forge: 'fakehub', repository: 'a/b', ref: 'v*' }, '/ref'],
  ])('answers 400 naming the field for %j', async (body, path) => {
    const res = await as(alice.jwt).post('/api/plugins/tool/trusted-publishers', body).expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  describe('the repository id comes from the forge, never from the client', () => {
    it.each([
      ['a trusted publisher', '/api/plugins/tool/trusted-publishers', {}],
      ['a pending publisher', '/api/auth/me/pending-publishers', { slug: 'real-thing' }],
    ])(
      'refuses %s whose repositoryId differs from what the forge says (422 naming repositoryId), with nothing written',
      async (_label, path, extra) => {
        const before = await written();
        const res = await as(alice.jwt)
          .post(path, { ...extra, forge: 'fakehub', repository: 'acme/real', repositoryId: '988669' })
          .expect(422);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body.type).toMatch(/\/problems\/repository-id-mismatch$/);
        expect(res.body.errors).toEqual([{ path: '/repositoryId', message: expect.stringContaining('1015') }]);
        expect(await written()).toEqual(before);
        expect(
          await sql(
            `SELECT 1 FROM pending_publisher WHERE repository_id = '988669' UNION ALL SELECT 1 FROM trusted_publisher WHERE repository_id = '988669'`,
          ),
        ).toEqual([]);
      },
    );

    it('stores the id the forge says for a pending publisher registered without one, asking the forge API', async () => {
      const asked = w.forge.requests.length;
      const res = await as(alice.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'real-thing', forge: 'fakehub', repository: 'acme/real' })
        .expect(201);
      expect(res.body).toMatchObject({ repositoryId: '1015', status: 'active', statusReason: null });
      expect(await sql(`SELECT repository_id FROM pending_publisher WHERE slug = 'real-thing'`)).toEqual([{ repository_id: '1015' }]);
      expect(w.forge.requests.slice(asked).map((r) => r.url)).toEqual(['/api/v3/repos/acme/real']);
      await as(alice.jwt).delete(`/api/auth/me/pending-publishers/${res.body.id}`).expect(204);
    });

    it("reads GitLab's project record (nested groups, the path as one encoded parameter) and Gitea's repository record", async () => {
      const lab = await as(alice.jwt)
        .post('/api/plugins/tool/trusted-publishers', { forge: 'fakelab', repository: 'group/sub/proj.js', workflow: '.gitlab-ci.yml' })
        .expect(201);
      expect(lab.body).toMatchObject({ repository: 'group/sub/proj.js', repositoryId: '4242' });
      expect(other.requests.map((r) => r.url)).toContain('/lab/api/v4/projects/group%2Fsub%2Fproj%2Ejs');
      const tea = await as(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'tea-thing', forge: 'faketea', repository: 'team/thing' })
        .expect(201);
      expect(tea.body).toMatchObject({ repository: 'team/thing', repositoryId: '99' });
      await as(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'tea-thing-2', forge: 'faketea', repository: 'team/thing', repositoryId: '100' })
        .expect(422);
      await as(bob.jwt).delete(`/api/auth/me/pending-publishers/${tea.body.id}`).expect(204);
    });

    it.each([
      ['a trusted publisher', '/api/plugins/tool/trusted-publishers', {}],
      ['a pending publisher', '/api/auth/me/pending-publishers', { slug: 'ghost-thing' }],
    ])(
      'refuses %s for a repository the forge does not know (422 naming repository) or names differently, with nothing written',
      async (_label, path, extra) => {
        const before = await written();
        const missing = await as(alice.jwt)
          .post(path, { ...extra, forge: 'fakehub', repository: 'acme/missing' })
          .expect(422);
        expect(missing.body.type).toMatch(/\/problems\/repository-not-found$/);
        expect(missing.body.errors).toEqual([{ path: '/repository', message: expect.stringContaining('acme/missing') }]);
        const renamed = await as(alice.jwt)
          .post(path, { ...extra, forge: 'fakehub', repository: 'acme/old-name' })
          .expect(422);
        expect(renamed.body.errors).toEqual([{ path: '/repository', message: expect.stringContaining('acme/new-name') }]);
        expect(await written()).toEqual(before);
      },
    );

    it.each([
      ['a trusted publisher', '/api/plugins/tool/trusted-publishers', {}],
      ['a pending publisher', '/api/auth/me/pending-publishers', { slug: 'broken-thing' }],
    ])('answers 502 for %s when the forge fails, with nothing written', async (_label, path, extra) => {
      const before = await written();
      const res = await as(alice.jwt)
        .post(path, { ...extra, forge: 'fakehub', repository: 'acme/broken', repositoryId: '5' })
        .expect(502);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.type).toMatch(/\/problems\/forge-fetch-failed$/);
      expect(await written()).toEqual(before);
    });
  });

  describe('pending publishers', () => {
    it('registers one for a free slug and lists and removes it, for its user only', async () => {
      const res = await as(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'future-thing', forge: 'fakehub', repository: 'bob/future' })
        .expect(201);
      expect(res.body).toMatchObject({
        slug: 'future-thing',
        repository: 'bob/future',
        repositoryId: '555',
        repoUrl: `${w.forge.url}/bob/future`,
        status: 'active',
        statusReason: null,
      });
      expect((await as(bob.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(1);
      expect((await as(alice.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(0);
      await as(alice.jwt).delete(`/api/auth/me/pending-publishers/${res.body.id}`).expect(404);
      await as(bob.jwt).delete(`/api/auth/me/pending-publishers/${res.body.id}`).expect(204);
      expect((await as(bob.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(0);
    });

    it.each([
      ['an existing slug', { slug: 'tool', forge: 'fakehub', repository: 'bob/other' }, 'slug-taken'],
      ['a repository already claimed by another slug', { slug: 'tool-two', forge: 'fakehub', repository: 'acme/tool' }, 'repo-claimed'],
    ])('answers 409 for %s', async (_label, body, code) => {
      const before = await written();
      const res = await as(bob.jwt).post('/api/auth/me/pending-publishers', body).expect(409);
      expect(res.body.type).toMatch(new RegExp(`/problems/${code}$`));
      expect(await written()).toEqual(before);
    });

    it('answers 409 when another pending publisher holds the slug or the repository', async () => {
      await as(alice.jwt).post('/api/auth/me/pending-publishers', { slug: 'held', forge: 'fakehub', repository: 'alice/held' }).expect(201);
      const before = await written();
      const sameSlug = await as(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'held', forge: 'fakehub', repository: 'bob/held' })
        .expect(409);
      expect(sameSlug.body.type).toMatch(/pending-publisher-exists$/);
      await as(bob.jwt)
        .post('/api/auth/me/pending-publishers', { slug: 'held-too', forge: 'fakehub', repository: 'alice/held' })
        .expect(409);
      expect(await written()).toEqual(before);
    });

    it('holds the cap of 10 per user under parallel registrations: exactly 10 created, the rest refused 409', async () => {
      const carol = await w.tokenFor('carol', ['publish:*']);
      for (let i = 0; i < 20; i++) w.forge.repository('github', `carol/race-${i}`, { id: 9000 + i });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          as(carol.jwt).post('/api/auth/me/pending-publishers', { slug: `race-${i}`, forge: 'fakehub', repository: `carol/race-${i}` }),
        ),
      );
      const refused = answers.filter((res) => res.status !== 201);
      expect(answers.length - refused.length).toBe(10);
      for (const res of refused) {
        expect(res.status).toBe(409);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({
          type: expect.stringMatching(/\/problems\/conflict$/),
          detail: expect.stringContaining('at most 10 pending publishers per user'),
        });
      }
      const [{ count }] = await sql(`SELECT count(*)::int AS count FROM pending_publisher WHERE user_id = $1 AND status = 'active'`, [
        carol.userId,
      ]);
      expect(count).toBe(10);
    });
  });
});
