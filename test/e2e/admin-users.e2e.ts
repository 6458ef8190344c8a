import request from 'supertest';
import { adminRefusalCallers, expectAdminOnly } from '../support/admin-refusals';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('admin users and roles', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const as = (jwt: string) => ({
    list: (query = '') => request(app.url).get(`/api/admin/users${query}`).set('Authorization', `Bearer ${jwt}`),
    patch: (id: string, body: object) => request(app.url).patch(`/api/admin/users/${id}`).set('Authorization', `Bearer ${jwt}`).send(body),
  });
  const audit = async (jwt: string, action: string) =>
    (await request(app.url).get(`/api/admin/audit?action=${action}&limit=100`).set('Authorization', `Bearer ${jwt}`).expect(200)).body
      .entries;
  const enabledAdmins = async () =>
    Number(
      (await app.database.dataSource.query(`SELECT count(*)::int AS n FROM user_account WHERE role = 'admin' AND disabled_at IS NULL`))[0]
        .n,
    );

  it('refuses anonymous callers, non-admins and publisher tokens', async () => {
    const callers = await adminRefusalCallers(app);
    const { user } = await userWithSession(app, 'guard-target');
    await expectAdminOnly(app, callers, 'get', '/api/admin/users');
    await expectAdminOnly(app, callers, 'patch', `/api/admin/users/${user.id}`, { role: 'admin' });
    await expectAdminOnly(app, callers, 'get', '/api/admin/audit');
    const [row] = await app.database.dataSource.query('SELECT role FROM user_account WHERE id = $1', [user.id]);
    expect(row.role).toBe('user');
  });

  it('lists users page by page, filtered by part of the login or email and by role', async () => {
    const admin = await userWithSession(app, 'list-admin', 'admin');
    for (const login of ['list-ann', 'list-annabel', 'list-bob', 'list_pct']) await userWithSession(app, login);
    await app.database.dataSource.query(`UPDATE user_account SET email = 'Bob@Example.org' WHERE login = 'list-bob'`);
    const api = as(admin.jwt);

    const anns = await api.list('?search=LIST-ANN').expect(200);
    expect(anns.headers['cache-control']).toBe('no-store');
    expect(anns.body).toMatchObject({ page: 1, limit: 20, total: 2 });
    expect(anns.body.users.map((u: { login: string }) => u.login)).toEqual(['list-ann', 'list-annabel']);
    expect(anns.body.users[0]).toEqual({
      id: expect.any(String),
      login: 'list-ann',
      instance: 'local',
      email: null,
      avatarUrl: null,
      role: 'user',
      disabled: false,
      disabledAt: null,
      createdAt: expect.any(Number),
    });
    expect((await api.list('?search=example.ORG').expect(200)).body.users.map((u: { login: string }) => u.login)).toEqual(['list-bob']);
    // LIKE wildcards in the search are plain characters.
    expect((await api.list('?search=list_').expect(200)).body.users.map((u: { login: string }) => u.login)).toEqual(['list_pct']);
    expect((await api.list('?search=%25').expect(200)).body.total).toBe(0);

    const admins = (await api.list('?role=admin&limit=100').expect(200)).body;
    expect(admins.users.every((u: { role: string }) => u.role === 'admin')).toBe(true);
    expect(admins.users.map((u: { login: string }) => u.login)).toContain('list-admin');

    const all = (await api.list('?search=list-&limit=2&page=2').expect(200)).body;
    expect(all).toMatchObject({ page: 2, limit: 2, total: 4 });
    expect(all.users.map((u: { login: string }) => u.login)).toEqual(['list-annabel', 'list-bob']);

    await api.list('?role=owner').expect(400);
    await api.list('?limit=101').expect(400);
    await api.list('?page=0').expect(400);
  });

  it('changes roles at once and audits user.role_change with before and after', async () => {
    const admin = await userWithSession(app, 'role-admin', 'admin');
    const carol = await userWithSession(app, 'role-carol');
    await request(app.url).get('/api/admin/users').set('Authorization', `Bearer ${carol.jwt}`).expect(403);

    const promoted = await as(admin.jwt).patch(carol.user.id, { role: 'admin' }).expect(200);
    expect(promoted.body).toMatchObject({ id: carol.user.id, role: 'admin', disabled: false });
    await as(carol.jwt).list().expect(200);

    await as(admin.jwt).patch(carol.user.id, { role: 'user' }).expect(200);
    await as(carol.jwt).list().expect(403);

    const entries = (await audit(admin.jwt, 'user.role_change')).filter(
      (e: { details: { userId: string } }) => e.details.userId === carol.user.id,
    );
    expect(entries.map((e: { details: unknown }) => e.details)).toEqual([
      { userId: carol.user.id, login: 'role-carol', instance: 'local', before: { role: 'admin' }, after: { role: 'user' } },
      { userId: carol.user.id, login: 'role-carol', instance: 'local', before: { role: 'user' }, after: { role: 'admin' } },
    ]);
    expect(entries[0].actor.userId).toBe(admin.user.id);

    // The same role again is no change and no audit entry.
    await as(admin.jwt).patch(carol.user.id, { role: 'user' }).expect(200);
    expect(
      (await audit(admin.jwt, 'user.role_change')).filter((e: { details: { userId: string } }) => e.details.userId === carol.user.id),
    ).toHaveLength(2);

    await as(admin.jwt).patch(carol.user.id, { role: 'owner' }).expect(400);
    await as(admin.jwt).patch(carol.user.id, { disabled: 'yes' }).expect(400);
    await as(admin.jwt).patch(carol.user.id, { login: 'renamed' }).expect(400);
    await as(admin.jwt).patch('00000000-0000-4000-8000-000000000000', { role: 'admin' }).expect(404);
    await as(admin.jwt).patch('not-a-uuid', { role: 'admin' }).expect(404);
  });

  it("stops a disabled user's session and publisher token at once, and enabling restores them", async () => {
    const admin = await userWithSession(app, 'disable-admin', 'admin');
    const dave = await userWithSession(app, 'disable-dave');
    const token = (
      await request(app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${dave.jwt}`)
        .send({ name: 'ci', scopes: ['publish:*'] })
        .expect(201)
    ).body.token;
    const me = () => request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${dave.jwt}`);
    // The guard passes a good token through to validation (400); a refused one stops there (401).
    const push = () => request(app.url).post('/api/publish/dave-plugin').set('Authorization', `Bearer ${token}`).send({});
    await me().expect(200);
    await push().expect(400);

    const disabled = await as(admin.jwt).patch(dave.user.id, { disabled: true }).expect(200);
    expect(disabled.body).toMatchObject({ disabled: true, disabledAt: expect.any(Number) });
    await me().expect(401);
    await push().expect(401);
    await request(app.url).get('/api/auth/me').set('Cookie', `registry_session=${dave.jwt}`).expect(401);

    await as(admin.jwt).patch(dave.user.id, { disabled: false }).expect(200);
    await me().expect(200);
    await push().expect(400);

    const details = async (action: string) =>
      (await audit(admin.jwt, action))
        .filter((e: { details: { userId: string } }) => e.details.userId === dave.user.id)
        .map((e: { details: unknown }) => e.details);
    expect(await details('user.disable')).toEqual([{ userId: dave.user.id, login: 'disable-dave', instance: 'local' }]);
    expect(await details('user.enable')).toEqual([{ userId: dave.user.id, login: 'disable-dave', instance: 'local' }]);
  });

  it('never leaves the registry without an enabled admin', async () => {
    // Only this test's admins are enabled.
    await app.database.dataSource.query(`UPDATE user_account SET role = 'user' WHERE role = 'admin'`);
    const solo = await userWithSession(app, 'solo-admin', 'admin');
    const demote = await as(solo.jwt).patch(solo.user.id, { role: 'user' }).expect(409);
    expect(demote.body.type).toMatch(/\/problems\/last-admin$/);
    expect(demote.body.detail).toMatch(/you are the last enabled admin/);
    await as(solo.jwt).patch(solo.user.id, { disabled: true }).expect(409);
    await as(solo.jwt).patch(solo.user.id, { role: 'user', disabled: true }).expect(409);
    expect(await enabledAdmins()).toBe(1);
    await as(solo.jwt).list().expect(200);

    // A disabled admin does not count: it cannot sign in.
    const dormant = await userWithSession(app, 'dormant-admin', 'admin');
    await as(solo.jwt).patch(dormant.user.id, { disabled: true }).expect(200);
    await as(solo.jwt).patch(solo.user.id, { role: 'user' }).expect(409);

    // With another enabled admin, stepping down is fine.
    const other = await userWithSession(app, 'other-admin', 'admin');
    await as(solo.jwt).patch(solo.user.id, { role: 'user' }).expect(200);
    await as(solo.jwt).list().expect(403);
    expect(await enabledAdmins()).toBe(1);

    // Two admins demoting each other at once: one wins, one enabled admin remains.
    await as(other.jwt).patch(solo.user.id, { role: 'admin' }).expect(200);
    const [a, b] = await Promise.all([
      as(solo.jwt).patch(other.user.id, { role: 'user' }),
      as(other.jwt).patch(solo.user.id, { role: 'user' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, expect.any(Number)]);
    expect([403, 409]).toContain(Math.max(a.status, b.status));
    expect(await enabledAdmins()).toBe(1);
  });
});

describe('audit log date range', () => {
  let app: TestApp;
  let admin: { jwt: string };
  const T = Date.UTC(2025, 0, 1);

  beforeAll(async () => {
    app = await startTestApp();
    admin = await userWithSession(app, 'range-admin', 'admin');
    for (const [i, at] of [T - 1, T, T + 1000, T + 86_400_000].entries()) {
      await app.database.dataSource.query(
        `INSERT INTO audit_entry (action, slug, details, created_at) VALUES ('plugin.verify', $1, '{}', $2)`,
        [`range-${i}`, new Date(at)],
      );
    }
  });
  afterAll(() => app?.close());

  const slugs = async (query: string) =>
    (
      await request(app.url).get(`/api/admin/audit?action=plugin.verify&${query}`).set('Authorization', `Bearer ${admin.jwt}`).expect(200)
    ).body.entries.map((e: { slug: string }) => e.slug);

  it('takes from (inclusive) and to (exclusive) as epoch ms or ISO 8601', async () => {
    expect(await slugs(`from=${T}`)).toEqual(['range-3', 'range-2', 'range-1']);
    expect(await slugs(`to=${T}`)).toEqual(['range-0']);
    expect(await slugs(`from=${T}&to=${T + 1000}`)).toEqual(['range-1']);
    expect(await slugs('from=2025-01-01&to=2025-01-02')).toEqual(['range-2', 'range-1']);
    expect(await slugs(`from=${encodeURIComponent('2025-01-01T01:00:00+01:00')}&to=${encodeURIComponent('2025-01-01T00:00:01Z')}`)).toEqual(
      ['range-1'],
    );
    expect(await slugs(`from=${T}&to=${T}`)).toEqual([]);
    const page = await request(app.url)
      .get(`/api/admin/audit?action=plugin.verify&from=${T}&limit=2`)
      .set('Authorization', `Bearer ${admin.jwt}`)
      .expect(200);
    expect(page.body).toMatchObject({ total: 3, totalPages: 2 });
  });

  it('refuses a range that ends before it starts, and values that are not instants', async () => {
    const get = (query: string) => request(app.url).get(`/api/admin/audit?${query}`).set('Authorization', `Bearer ${admin.jwt}`);
    const reversed = await get(`from=${T + 1}&to=${T}`).expect(400);
    expect(reversed.body.errors).toEqual([{ path: '/from', message: 'from: must not be after to' }]);
    const bad = await get('from=yesterday&to=2025-02-30').expect(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['/from', '/to']);
    await get('from=2025-01-01T10:00:00').expect(400);
  });
});
