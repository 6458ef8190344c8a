import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('the wishlist (/api/requests)', () => {
  let app: TestApp;
  let admin: { jwt: string; user: { id: string } };
  let alice: { jwt: string; user: { id: string } };
  let bob: { jwt: string; user: { id: string } };

  const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const create = (jwt: string, body: Record<string, unknown>) => request(app.url).post('/api/requests').set(bearer(jwt)).send(body);
  const upvote = (jwt: string, id: string) => request(app.url).post(`/api/requests/${id}/upvote`).set(bearer(jwt));
  const unvote = (jwt: string, id: string) => request(app.url).delete(`/api/requests/${id}/upvote`).set(bearer(jwt));
  const settle = (id: string, body: Record<string, unknown>) =>
    request(app.url).patch(`/api/admin/requests/${id}`).set(bearer(admin.jwt)).send(body);
  const setFlag = (requests: boolean) =>
    request(app.url).patch('/api/admin/features').set(bearer(admin.jwt)).send({ flags: { requests } }).expect(200);
  const voteRows = async (id: string) =>
    Number((await app.database.dataSource.query('SELECT count(*)::int AS n FROM plugin_request_vote WHERE request_id = $1', [id]))[0].n);

  beforeAll(async () => {
    app = await startTestApp();
    admin = await userWithSession(app, 'wish-admin', 'admin');
    alice = await userWithSession(app, 'alice');
    bob = await userWithSession(app, 'bob');
    await app.database.dataSource.query(`INSERT INTO kind (key, label, enabled) VALUES ('theme', 'Themes', true), ('old', 'Old', false)`);
  });
  afterAll(() => app?.close());

  it('lets anyone read, signed-in users create, and says whether the caller voted', async () => {
    await request(app.url).post('/api/requests').send({ title: 'Anonymous wish' }).expect(401);
    const created = await create(alice.jwt, { title: 'A Mermaid renderer', description: 'Diagrams in READMEs', kind: 'theme' }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      title: 'A Mermaid renderer',
      description: 'Diagrams in READMEs',
      kind: 'theme',
      votes: 0,
      voted: false,
      status: 'open',
      plugin: null,
      createdAt: expect.any(Number),
    });
    const id = created.body.id;
    await upvote(bob.jwt, id).expect(200);

    const anonymous = await request(app.url).get('/api/requests').expect(200);
    expect(anonymous.headers['cache-control']).toBe('private, no-cache');
    expect(anonymous.body).toMatchObject({ page: 1, limit: 20, total: 1 });
    expect(anonymous.body.requests).toEqual([{ ...created.body, votes: 1, voted: false }]);
    const asBob = await request(app.url).get('/api/requests').set(bearer(bob.jwt)).expect(200);
    expect(asBob.body.requests[0]).toMatchObject({ id, votes: 1, voted: true });
    const asAlice = await request(app.url).get('/api/requests').set(bearer(alice.jwt)).expect(200);
    expect(asAlice.body.requests[0]).toMatchObject({ id, voted: false });
    // A stale or foreign credential on a public read is simply anonymous.
    await request(app.url).get('/api/requests').set('Authorization', 'Bearer not-a-session').expect(200);
  });

  it('validates new requests, including the kind against the enabled kinds', async () => {
    const bad = await create(alice.jwt, { title: '', description: 'x'.repeat(2001), kind: 'Not A Kind' }).expect(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/description', '/kind', '/title']);
    const disabled = await create(alice.jwt, { title: 'Retro', kind: 'old' }).expect(400);
    expect(disabled.body.errors).toEqual([{ path: '/kind', message: expect.stringContaining('theme') }]);
    await create(alice.jwt, { title: 'Nope', votes: 100 }).expect(400);
  });

  it('counts one vote a user: the same user twice is 1, and removing it twice is 0', async () => {
    const { body } = await create(alice.jwt, { title: 'Vote once' }).expect(201);
    expect((await upvote(bob.jwt, body.id).expect(200)).body).toMatchObject({ votes: 1, voted: true });
    expect((await upvote(bob.jwt, body.id).expect(200)).body).toMatchObject({ votes: 1, voted: true });
    const twiceAtOnce = await Promise.all([upvote(alice.jwt, body.id), upvote(alice.jwt, body.id), upvote(alice.jwt, body.id)]);
    expect(twiceAtOnce.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await upvote(alice.jwt, body.id).expect(200)).body.votes).toBe(2);
    expect((await unvote(bob.jwt, body.id).expect(200)).body).toMatchObject({ votes: 1, voted: false });
    expect((await unvote(bob.jwt, body.id).expect(200)).body).toMatchObject({ votes: 1, voted: false });
    expect(await voteRows(body.id)).toBe(1);
  });

  it('counts 50 concurrent upvotes from 50 users as 50', async () => {
    const { body } = await create(alice.jwt, { title: 'Popular' }).expect(201);
    const voters = await Promise.all(Array.from({ length: 50 }, (_, i) => userWithSession(app, `voter-${i}`)));
    const results = await Promise.all(voters.map((v) => upvote(v.jwt, body.id)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const after = await request(app.url).get('/api/requests?sort=votes&limit=1').expect(200);
    expect(after.body.requests[0]).toMatchObject({ id: body.id, votes: 50 });
    expect(await voteRows(body.id)).toBe(50);

    // And 50 concurrent removals with 50 more upvotes leave exactly the new ones.
    const others = await Promise.all(Array.from({ length: 25 }, (_, i) => userWithSession(app, `late-voter-${i}`)));
    await Promise.all([...voters.slice(0, 25).map((v) => unvote(v.jwt, body.id)), ...others.map((v) => upvote(v.jwt, body.id))]);
    expect((await upvote(alice.jwt, body.id).expect(200)).body.votes).toBe(51);
    expect(await voteRows(body.id)).toBe(51);
  });

  it('sorts by votes or newest, filters by status and pages with the shared paging envelope', async () => {
    const byVotes = await request(app.url).get('/api/requests?sort=votes').expect(200);
    const votes = byVotes.body.requests.map((r: { votes: number }) => r.votes);
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
    const newest = await request(app.url).get('/api/requests?sort=new').expect(200);
    const times = newest.body.requests.map((r: { createdAt: number }) => r.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const pageOne = await request(app.url).get('/api/requests?sort=new&limit=2&page=1').expect(200);
    const pageTwo = await request(app.url).get('/api/requests?sort=new&limit=2&page=2').expect(200);
    expect(pageOne.body).toMatchObject({ page: 1, limit: 2, total: newest.body.total });
    expect(pageOne.body.requests).toHaveLength(2);
    expect(pageTwo.body.requests[0].id).toBe(newest.body.requests[2].id);

    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=x', 'sort=top', 'status=done', 'extra=1']) {
      await request(app.url).get(`/api/requests?${query}`).expect(400);
    }
    await upvote(bob.jwt, 'not-a-uuid').expect(404);
    await upvote(bob.jwt, '00000000-0000-4000-8000-000000000000').expect(404);
  });

  it('lets admins mark a request fulfilled by a plugin or closed, audited; settled requests take no votes', async () => {
    const [plugin] = await app.database.dataSource.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ('mermaid', 'mermaid', 'https://example.org/a/mermaid', 'example.org/a/mermaid') RETURNING id`,
    );
    expect(plugin.id).toEqual(expect.any(String));
    const { body } = await create(alice.jwt, { title: 'Mermaid please' }).expect(201);

    const missing = await settle(body.id, { status: 'fulfilled' }).expect(400);
    expect(missing.body.errors).toEqual([{ path: '/plugin', message: expect.stringContaining('required') }]);
    await settle(body.id, { status: 'fulfilled', plugin: 'no-such-plugin' }).expect(400);
    await settle(body.id, { status: 'closed', plugin: 'mermaid' }).expect(400);
    await settle(body.id, { status: 'done' }).expect(400);
    await settle('00000000-0000-4000-8000-000000000000', { status: 'closed' }).expect(404);

    const fulfilled = await settle(body.id, { status: 'fulfilled', plugin: 'mermaid' }).expect(200);
    expect(fulfilled.body).toMatchObject({ id: body.id, status: 'fulfilled', plugin: 'mermaid' });
    const listed = await request(app.url).get('/api/requests?status=fulfilled').expect(200);
    expect(listed.body.requests.map((r: { id: string; plugin: string }) => [r.id, r.plugin])).toEqual([[body.id, 'mermaid']]);
    const refused = await upvote(bob.jwt, body.id).expect(409);
    expect(refused.body.type).toMatch(/\/problems\/request-not-open$/);

    const closed = await settle(body.id, { status: 'closed' }).expect(200);
    expect(closed.body).toMatchObject({ status: 'closed', plugin: null });
    expect((await request(app.url).get('/api/requests?status=closed').expect(200)).body.total).toBe(1);

    const entries = await app.database.dataSource.query(
      `SELECT actor_user_id, slug, details FROM audit_entry WHERE action = 'request.update' ORDER BY created_at`,
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      actor_user_id: admin.user.id,
      slug: 'mermaid',
      details: { requestId: body.id, before: { status: 'open', plugin: null }, after: { status: 'fulfilled', plugin: 'mermaid' } },
    });
    expect(entries[1].details).toMatchObject({
      before: { status: 'fulfilled', plugin: 'mermaid' },
      after: { status: 'closed', plugin: null },
    });
  });

  it('answers 404 on every wishlist endpoint while the requests flag is off, to everyone', async () => {
    const { body } = await create(alice.jwt, { title: 'Before the switch' }).expect(201);
    await setFlag(false);
    try {
      await request(app.url).get('/api/requests').expect(404);
      await request(app.url).get('/api/requests').set(bearer(alice.jwt)).expect(404);
      await request(app.url).post('/api/requests').send({ title: 'x' }).expect(404);
      await create(alice.jwt, { title: 'During the switch' }).expect(404);
      await upvote(bob.jwt, body.id).expect(404);
      await unvote(bob.jwt, body.id).expect(404);
      await request(app.url).post(`/api/requests/${body.id}/upvote`).expect(404);
      // Admins can still settle requests while the wishlist is hidden.
      await settle(body.id, { status: 'closed' }).expect(200);
    } finally {
      await setFlag(true);
    }
    await request(app.url).get('/api/requests').expect(200);
  });
});
