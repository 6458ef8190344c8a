import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

/** Managing trusted publishers (owners) and pending publishers (signed-in users); the OIDC exchange is trusted-publishing.e2e.ts. */
describe('trusted and pending publishers', () => {
  let w: PublishWorld;
  let alice: { token: string; userId: string; jwt: string };
  let bob: { token: string; userId: string; jwt: string };

  const as = (jwt: string) => ({
    get: (path: string) => request(w.app.url).get(path).set('Authorization', `Bearer ${jwt}`),
    post: (path: string, body: object) => request(w.app.url).post(path).set('Authorization', `Bearer ${jwt}`).send(body),
    delete: (path: string) => request(w.app.url).delete(path).set('Authorization', `Bearer ${jwt}`),
  });

  async function publish(slug: string, repo: string) {
    const asset = w.forge.asset(`/${repo}/releases/${slug}.zip`, { size: 100 });
    await w
      .push(alice.token, slug, { manifest: manifestYaml({ name: slug, version: '1.0.0' }), manifestSource: 'plugin.yaml', version: '1.0.0', assets: [{ name: `${slug}.zip`, url: asset }], repoUrl: `${w.forge.url}/${repo}` })
      .expect(201);
  }

  beforeAll(async () => {
    w = await publishWorld({}, { oidcIssuer: 'https://issuer.example', extraForges: [{ name: 'plain', type: 'gitea', webUrl: 'https://plain.example', apiUrl: 'https://plain.example/api/v1' }] });
    alice = await w.tokenFor('alice', ['publish:*']);
    bob = await w.tokenFor('bob', ['publish:*']);
    w.forge.json('GET', '/api/v3/repos/acme/tool', { id: 1001, full_name: 'acme/tool' });
    await publish('tool', 'acme/tool');
  });
  afterAll(() => w?.close());

  it('lets an owner add, list and remove trusted publishers, reading the repository id from the forge, and audits both', async () => {
    const added = await as(alice.jwt)
      .post('/api/plugins/tool/trusted-publishers', { forge: 'fakehub', repository: 'acme/tool', workflow: '.github/workflows/release.yml', ref: 'refs/tags/v*' })
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
    const second = await as(alice.jwt).post('/api/plugins/tool/trusted-publishers', { forge: 'fakehub', repository: 'acme/tool', repositoryId: '7', environment: 'release' }).expect(201);
    expect((await as(alice.jwt).get('/api/plugins/tool/trusted-publishers').expect(200)).body.trustedPublishers.map((p: { id: string }) => p.id)).toEqual([added.body.id, second.body.id]);

    await as(alice.jwt).delete(`/api/plugins/tool/trusted-publishers/${second.body.id}`).expect(204);
    await as(alice.jwt).delete(`/api/plugins/tool/trusted-publishers/${second.body.id}`).expect(404);
    expect((await as(alice.jwt).get('/api/plugins/tool/trusted-publishers').expect(200)).body.trustedPublishers).toHaveLength(1);
    const audit = await w.app.database.dataSource.query(`SELECT action, details FROM audit_entry WHERE action LIKE 'trusted_publisher.%' AND slug = 'tool' ORDER BY created_at`);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['trusted_publisher.add', 'trusted_publisher.add', 'trusted_publisher.remove']);
    expect(audit[2].details).toMatchObject({ id: second.body.id, repositoryId: '7', environment: 'release' });
  });

  it('refuses non-owners (403), unknown plugins (404), anonymous callers (401) and a publisher token (401)', async () => {
    await as(bob.jwt).get('/api/plugins/tool/trusted-publishers').expect(403);
    await as(bob.jwt).post('/api/plugins/tool/trusted-publishers', { forge: 'fakehub', repository: 'bob/evil', repositoryId: '9' }).expect(403);
    await as(alice.jwt).get('/api/plugins/nothing-here/trusted-publishers').expect(404);
    await request(w.app.url).get('/api/plugins/tool/trusted-publishers').expect(401);
    await request(w.app.url).get('/api/plugins/tool/trusted-publishers').set('Authorization', `Bearer ${alice.token}`).expect(401);
    expect(await w.app.database.dataSource.query(`SELECT 1 FROM trusted_publisher WHERE repository_path = 'bob/evil'`)).toEqual([]);
  });

  it.each([
    [{ forge: 'nope', repository: 'a/b', repositoryId: '1' }, '/forge'],
    [{ forge: 'plain', repository: 'a/b', repositoryId: '1' }, '/forge'],
    [{ forge: 'fakehub', repository: 'a/b/c', repositoryId: '1' }, '/repository'],
    [{ forge: 'fakehub', repository: 'a/b', repositoryId: 'abc' }, '/repositoryId'],
    [{ forge: 'fakehub', repository: 'a/b', repositoryId: '1', ref: 'v*' }, '/ref'],
  ])('answers 400 naming the field for %j', async (body, path) => {
    const res = await as(alice.jwt).post('/api/plugins/tool/trusted-publishers', body).expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('answers 502 when no repository id is given and the forge does not know the repository', async () => {
    await as(alice.jwt).post('/api/plugins/tool/trusted-publishers', { forge: 'fakehub', repository: 'acme/missing' }).expect(502);
  });

  describe('pending publishers', () => {
    it('registers one for a free slug and lists and removes it, for its user only', async () => {
      const res = await as(bob.jwt).post('/api/auth/me/pending-publishers', { slug: 'future-thing', forge: 'fakehub', repository: 'bob/future', repositoryId: '555' }).expect(201);
      expect(res.body).toMatchObject({ slug: 'future-thing', repository: 'bob/future', repositoryId: '555', repoUrl: `${w.forge.url}/bob/future` });
      expect((await as(bob.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(1);
      expect((await as(alice.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(0);
      await as(alice.jwt).delete(`/api/auth/me/pending-publishers/${res.body.id}`).expect(404);
      await as(bob.jwt).delete(`/api/auth/me/pending-publishers/${res.body.id}`).expect(204);
      expect((await as(bob.jwt).get('/api/auth/me/pending-publishers').expect(200)).body.pendingPublishers).toHaveLength(0);
    });

    it.each([
      ['an existing slug', { slug: 'tool', forge: 'fakehub', repository: 'bob/other', repositoryId: '600' }, 'slug-taken'],
      ['a repository already claimed by another slug', { slug: 'tool-two', forge: 'fakehub', repository: 'acme/tool', repositoryId: '1001' }, 'repo-claimed'],
    ])('answers 409 for %s', async (_label, body, code) => {
      const res = await as(bob.jwt).post('/api/auth/me/pending-publishers', body).expect(409);
      expect(res.body.type).toMatch(new RegExp(`/problems/${code}$`));
      expect(await w.app.database.dataSource.query(`SELECT 1 FROM pending_publisher WHERE slug = $1`, [body.slug])).toEqual([]);
    });

    it('answers 409 when another pending publisher holds the slug or the repository', async () => {
      await as(alice.jwt).post('/api/auth/me/pending-publishers', { slug: 'held', forge: 'fakehub', repository: 'alice/held', repositoryId: '700' }).expect(201);
      const sameSlug = await as(bob.jwt).post('/api/auth/me/pending-publishers', { slug: 'held', forge: 'fakehub', repository: 'bob/held', repositoryId: '701' }).expect(409);
      expect(sameSlug.body.type).toMatch(/pending-publisher-exists$/);
      await as(bob.jwt).post('/api/auth/me/pending-publishers', { slug: 'held-too', forge: 'fakehub', repository: 'alice/held', repositoryId: '700' }).expect(409);
    });
  });
});
