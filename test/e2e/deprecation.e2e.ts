import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

interface PluginDeprecationRow {
  deprecated_at: Date | null;
  deprecation_message: string | null;
  deprecated_replacement: string | null;
  deprecated_by: string | null;
}

describe('deprecating a plugin', () => {
  let w: PublishWorld;
  let alice: { token: string; userId: string; jwt: string };
  let bob: { token: string; userId: string; jwt: string };
  let admin: { jwt: string; id: string };
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const row = async (slug: string): Promise<PluginDeprecationRow> =>
    (
      (await w.app.database.dataSource.query(
        'SELECT deprecated_at, deprecation_message, deprecated_replacement, deprecated_by FROM plugin WHERE slug = $1',
        [slug],
      )) as PluginDeprecationRow[]
    )[0];
  const auditCount = async () =>
    Number(
      (await w.app.database.dataSource.query(`SELECT count(*)::int AS n FROM audit_entry WHERE action LIKE 'plugin.%deprecate%'`))[0].n,
    );
  const put = (slug: string, jwt: string | null, body: Record<string, unknown>) => {
    const call = request(w.app.url).put(`/api/plugins/${slug}/deprecation`);
    return (jwt ? call.set(as(jwt)) : call).send(body);
  };
  const slugsOf = async (query: string) =>
    ((await request(w.app.url).get(`/api/plugins?limit=100&${query}`).expect(200)).body.plugins as { slug: string }[]).map((p) => p.slug);

  const body = (slug: string, version: string, fields: Record<string, unknown> = {}) => ({
    manifest: manifestYaml({ name: slug, version, description: `The ${slug} tool`, ...fields }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 300, seed: slug.length }) }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });

  beforeAll(async () => {
    w = await publishWorld();
    const root = await userWithSession(w.app, 'root', 'admin');
    admin = { jwt: root.jwt, id: root.user.id };
    alice = await w.tokenFor('alice', ['publish:*']);
    bob = await w.tokenFor('bob', ['publish:*']);
    // Published oldest first: `zeta-tool` is the newest, so it leads `updated` and `new` until deprecated.
    for (const slug of ['old-tool', 'new-tool', 'aaa-tool', 'zeta-tool']) await w.push(alice.token, slug, body(slug, '1.0.0')).expect(201);
    await w.push(bob.token, 'bob-tool', body('bob-tool', '1.0.0')).expect(201);
  });
  afterAll(() => w?.close());

  describe('refusals: nothing changes and only the denial is audited', () => {
    const unchanged = async (slug: string) =>
      expect(await row(slug)).toEqual({
        deprecated_at: null,
        deprecation_message: null,
        deprecated_replacement: null,
        deprecated_by: null,
      });

    it('401 anonymous, 401 with a publisher token (a session is needed), neither audited', async () => {
      const before = await auditCount();
      await put('old-tool', null, { message: 'gone' }).expect(401);
      await put('old-tool', alice.token, { message: 'gone' }).expect(401);
      await request(w.app.url).delete('/api/plugins/old-tool/deprecation').expect(401);
      expect(await auditCount()).toBe(before);
      await unchanged('old-tool');
    });

    it('403 for a user who owns neither it nor the registry, audited plugin.deprecate_denied', async () => {
      const refused = await put('old-tool', bob.jwt, { message: 'not mine', replacement: 'bob-tool' }).expect(403);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      const undo = await request(w.app.url).delete('/api/plugins/old-tool/deprecation').set(as(bob.jwt)).expect(403);
      expect(undo.body.status).toBe(403);
      const denied = await w.audit('plugin.deprecate_denied');
      expect(denied.map((a) => [a.slug, a.details.operation])).toEqual([
        ['old-tool', 'deprecate'],
        ['old-tool', 'undeprecate'],
      ]);
      expect(denied[0].details).toMatchObject({ message: 'not mine', replacement: 'bob-tool', code: 'forbidden' });
      expect(await w.audit('plugin.deprecate')).toEqual([]);
      await unchanged('old-tool');
    });

    it('404 for no such plugin, 400 for a slug that cannot be one; neither audited', async () => {
      const before = await auditCount();
      await put('no-such', alice.jwt, { message: 'x' }).expect(404);
      await put('no-such', admin.jwt, { message: 'x' }).expect(404);
      await request(w.app.url).put('/api/admin/plugins/no-such/deprecation').set(as(admin.jwt)).send({ message: 'x' }).expect(404);
      await put('Not_A_Slug', alice.jwt, { message: 'x' }).expect(400);
      expect(await auditCount()).toBe(before);
    });

    it.each([
      [{}, '/message', 'message'],
      [{ message: '' }, '/message', 'message'],
      [{ message: '   ' }, '/message', 'message: must not be blank'],
      [{ message: 'x'.repeat(501) }, '/message', 'message'],
      [{ message: 42 }, '/message', 'message'],
      [{ message: 'ok', replacement: 'Not_A_Slug' }, '/replacement', 'replacement: must be a plugin slug'],
      [{ message: 'ok', replacement: 7 }, '/replacement', 'replacement'],
      [{ message: 'a\u0000b' }, '/message', 'message: must not contain control characters'],
      [{ message: 'a\u0007b' }, '/message', 'message: must not contain control characters'],
      [{ message: 'a\nb' }, '/message', 'message: must not contain control characters'],
    ])('400 for %j naming %s, nothing written', async (input, path, message) => {
      const before = await auditCount();
      const refused = await put('old-tool', alice.jwt, input).expect(400);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(refused.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ path, message: expect.stringContaining(message) })]),
      );
      expect(await auditCount()).toBe(before);
      await unchanged('old-tool');
    });

    it('400, not 500, for a NUL message from a non-owner: refused as bad input before ownership, nothing audited or written', async () => {
      const before = await auditCount();
      const refused = await put('old-tool', bob.jwt, { message: 'a\u0000b', replacement: 'bob-tool' }).expect(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: '/message' })]);
      expect(await auditCount()).toBe(before);
      await unchanged('old-tool');
    });

    it('422 naming replacement: no such plugin, the plugin itself, a deprecated plugin pointing back; nothing written', async () => {
      const before = await auditCount();
      for (const replacement of ['no-such-tool', 'old-tool']) {
        const refused = await put('old-tool', alice.jwt, { message: 'use another', replacement }).expect(422);
        expect(refused.body.errors).toEqual([{ path: '/replacement', message: expect.stringMatching(/^replacement: /) }]);
      }
      expect(await auditCount()).toBe(before);
      await unchanged('old-tool');
      // aaa-tool points at old-tool; old-tool may not point back at it.
      await put('aaa-tool', alice.jwt, { message: 'merged into old-tool', replacement: 'old-tool' }).expect(200);
      const cycle = await put('old-tool', alice.jwt, { message: 'use aaa', replacement: 'aaa-tool' }).expect(422);
      expect(cycle.body.errors).toEqual([{ path: '/replacement', message: expect.stringContaining('point at each other') }]);
      await unchanged('old-tool');
      await request(w.app.url).delete('/api/plugins/aaa-tool/deprecation').set(as(alice.jwt)).expect(200);
      expect(await auditCount()).toBe(before + 2);
    });
  });

  describe('an owner deprecates old-tool in favour of new-tool', () => {
    let since: number;
    beforeAll(async () => {
      // Verified plugins lead every sort; a deprecated one still sinks below all others.
      await request(w.app.url).post('/api/admin/plugins/old-tool/verify').set(as(admin.jwt)).expect(200);
      await request(w.app.url).post('/api/admin/plugins/old-tool/feature').set(as(admin.jwt)).expect(200);
      expect((await slugsOf('sort=name'))[0]).toBe('old-tool');
      const done = await put('old-tool', alice.jwt, { message: 'Unmaintained; use new-tool', replacement: 'new-tool' }).expect(200);
      expect(done.body).toEqual({
        slug: 'old-tool',
        deprecated: { message: 'Unmaintained; use new-tool', replacement: 'new-tool', since: expect.any(Number) },
      });
      since = done.body.deprecated.since;
    });

    it('writes the columns and the audit entry (actor, message, replacement) in one go', async () => {
      const stored = await row('old-tool');
      expect(stored).toMatchObject({
        deprecation_message: 'Unmaintained; use new-tool',
        deprecated_replacement: 'new-tool',
        deprecated_by: alice.userId,
      });
      expect(stored.deprecated_at?.getTime()).toBe(since);
      const [entry] = (await w.app.database.dataSource.query(
        `SELECT actor_user_id, details FROM audit_entry WHERE action = 'plugin.deprecate' AND slug = 'old-tool'`,
      )) as { actor_user_id: string; details: unknown }[];
      expect(entry).toEqual({ actor_user_id: alice.userId, details: { message: 'Unmaintained; use new-tool', replacement: 'new-tool' } });
    });

    it('shows it on list items and the detail; other plugins say null', async () => {
      const list = (await request(w.app.url).get('/api/plugins?limit=100').expect(200)).body.plugins as {
        slug: string;
        deprecated: unknown;
      }[];
      const deprecation = { message: 'Unmaintained; use new-tool', replacement: 'new-tool', since };
      expect(list.find((p) => p.slug === 'old-tool')?.deprecated).toEqual(deprecation);
      expect(list.find((p) => p.slug === 'new-tool')?.deprecated).toBeNull();
      expect((await request(w.app.url).get('/api/plugins/old-tool').expect(200)).body.deprecated).toEqual(deprecation);
      expect((await request(w.app.url).get('/api/plugins/old-tool').set(as(bob.jwt)).expect(200)).body.deprecated).toEqual(deprecation);
    });

    it.each([
      'sort=updated',
      'sort=new',
      'sort=name',
      'sort=featured',
      'search=tool',
      'search=old-tool',
      'search=old',
      'search=tool&sort=name',
      'verified=1&sort=name',
      'featured=1',
    ])('sinks it below every other plugin (%s), verified, featured and exact name notwithstanding', async (query) => {
      const slugs = await slugsOf(query);
      expect(slugs[slugs.length - 1]).toBe('old-tool');
    });

    it('latest carries RFC 9745 headers on every path: the lane, Express, and a response-cache hit', async () => {
      const expected = {
        deprecation: `@${Math.floor(since / 1000)}`,
        link: `<${w.app.config.baseUrl}/plugins/old-tool>; rel="deprecation"; type="text/html", <${w.app.config.baseUrl}/plugins/new-tool>; rel="successor-version"`,
      };
      const caches: unknown[] = [];
      // Stored on its second ask, a hit on the third; a signed-in read goes through Express.
      for (const headers of [{}, {}, {}, as(bob.jwt)]) {
        const answer = await request(w.app.url).get('/api/plugins/old-tool/latest?os=linux').set(headers).expect(200);
        caches.push(answer.headers['x-cache']);
        expect({ deprecation: answer.headers.deprecation, link: answer.headers.link }).toEqual(expected);
        expect(answer.body.version).toBe('1.0.0');
      }
      expect(caches).toEqual(['miss', 'miss', 'hit', undefined]);
      const plain = await request(w.app.url).get('/api/plugins/new-tool/latest').expect(200);
      expect(plain.headers.deprecation).toBeUndefined();
      expect(plain.headers.link).toBeUndefined();

      // releases/latest (Express only; stored and replayed by the response cache) carries them too.
      const releaseCaches: unknown[] = [];
      for (const headers of [{}, {}, {}, as(bob.jwt)]) {
        const answer = await request(w.app.url).get('/api/plugins/old-tool/releases/latest').set(headers).expect(200);
        releaseCaches.push(answer.headers['x-cache']);
        expect({ deprecation: answer.headers.deprecation, link: answer.headers.link }).toEqual(expected);
        expect(answer.body.version).toBe('1.0.0');
      }
      expect(releaseCaches).toEqual(['miss', 'miss', 'hit', undefined]);
      const plainRelease = await request(w.app.url).get('/api/plugins/new-tool/releases/latest').expect(200);
      expect(plainRelease.headers.deprecation).toBeUndefined();
      expect(plainRelease.headers.link).toBeUndefined();
    });

    it('sent again, replaces message and replacement and keeps since; then undone, all back, undo twice records once', async () => {
      const again = await put('old-tool', alice.jwt, { message: 'Archived' }).expect(200);
      expect(again.body.deprecated).toEqual({ message: 'Archived', replacement: null, since });
      const onlyDeprecation = (await request(w.app.url).get('/api/plugins/old-tool/latest').expect(200)).headers;
      expect(onlyDeprecation.link).toBe(`<${w.app.config.baseUrl}/plugins/old-tool>; rel="deprecation"; type="text/html"`);

      const undone = await request(w.app.url).delete('/api/plugins/old-tool/deprecation').set(as(alice.jwt)).expect(200);
      expect(undone.body).toEqual({ slug: 'old-tool', deprecated: null });
      expect(await row('old-tool')).toEqual({
        deprecated_at: null,
        deprecation_message: null,
        deprecated_replacement: null,
        deprecated_by: null,
      });
      const undeprecations = () => w.audit('plugin.undeprecate');
      expect((await undeprecations()).filter((a) => a.slug === 'old-tool').map((a) => a.details)).toEqual([
        { message: 'Archived', replacement: null },
      ]);
      await request(w.app.url).delete('/api/plugins/old-tool/deprecation').set(as(alice.jwt)).expect(200);
      expect((await undeprecations()).filter((a) => a.slug === 'old-tool')).toHaveLength(1);

      expect((await slugsOf('sort=name'))[0]).toBe('old-tool');
      expect((await request(w.app.url).get('/api/plugins/old-tool').expect(200)).body.deprecated).toBeNull();
      const latest = await request(w.app.url).get('/api/plugins/old-tool/latest?os=linux').expect(200);
      expect(latest.headers.deprecation).toBeUndefined();
    });
  });

  it("logs a catalogue change for each deprecation column, so every instance's index and item cache see it", async () => {
    const db = w.app.database.dataSource;
    const changes = async () =>
      Number(
        (
          await db.query(`SELECT count(*)::int AS n FROM catalogue_change c JOIN plugin p ON p.id = c.plugin_id WHERE p.slug = 'aaa-tool'`)
        )[0].n,
      );
    for (const set of [`deprecated_at = now()`, `deprecation_message = 'm'`, `deprecated_replacement = 'new-tool'`]) {
      const before = await changes();
      await db.query(`UPDATE plugin SET ${set} WHERE slug = 'aaa-tool'`);
      expect({ set, logged: (await changes()) - before }).toEqual({ set, logged: 1 });
    }
    await db.query(
      `UPDATE plugin SET deprecated_at = NULL, deprecation_message = NULL, deprecated_replacement = NULL WHERE slug = 'aaa-tool'`,
    );
  });

  it("admins deprecate and undo anyone's plugin through the owner route and their own", async () => {
    await put('bob-tool', admin.jwt, { message: 'Taken down pending review' }).expect(200);
    await request(w.app.url).delete('/api/admin/plugins/bob-tool/deprecation').set(as(admin.jwt)).expect(200);
    const byAdmin = await request(w.app.url)
      .put('/api/admin/plugins/bob-tool/deprecation')
      .set(as(admin.jwt))
      .send({ message: 'Superseded', replacement: 'new-tool' })
      .expect(200);
    expect(byAdmin.body.deprecated).toMatchObject({ message: 'Superseded', replacement: 'new-tool' });
    expect((await row('bob-tool')).deprecated_by).toBe(admin.id);
    await request(w.app.url).put('/api/admin/plugins/bob-tool/deprecation').set(as(bob.jwt)).send({ message: 'x' }).expect(403);
    const entries = (await w.app.database.dataSource.query(
      `SELECT action, actor_user_id FROM audit_entry WHERE slug = 'bob-tool' AND action LIKE 'plugin.%deprecate' ORDER BY created_at, id`,
    )) as { action: string; actor_user_id: string }[];
    expect(entries).toEqual([
      { action: 'plugin.deprecate', actor_user_id: admin.id },
      { action: 'plugin.undeprecate', actor_user_id: admin.id },
      { action: 'plugin.deprecate', actor_user_id: admin.id },
    ]);
    // The owner may neither undo nor rewrite what an admin (not an owner) did: refused, audited, nothing changed.
    const deniedBefore = (await w.audit('plugin.deprecate_denied')).length;
    const undo = await request(w.app.url).delete('/api/plugins/bob-tool/deprecation').set(as(bob.jwt)).expect(403);
    expect(undo.body.type).toBe(`${w.app.config.baseUrl}/problems/admin-deprecation`);
    await put('bob-tool', bob.jwt, { message: 'Actually fine' }).expect(403);
    const denied = (await w.audit('plugin.deprecate_denied')).slice(deniedBefore);
    expect(denied.map((a) => [a.slug, a.details.operation, a.details.code])).toEqual([
      ['bob-tool', 'undeprecate', 'admin-deprecation'],
      ['bob-tool', 'deprecate', 'admin-deprecation'],
    ]);
    expect(await row('bob-tool')).toMatchObject({
      deprecation_message: 'Superseded',
      deprecated_replacement: 'new-tool',
      deprecated_by: admin.id,
    });
    // An admin who also owns the plugin sets an owner's mark: the other owners may change it.
    await w.app.database.dataSource.query('INSERT INTO plugin_owner (plugin_id, user_id) SELECT id, $1 FROM plugin WHERE slug = $2', [
      admin.id,
      'bob-tool',
    ]);
    await request(w.app.url)
      .put('/api/admin/plugins/bob-tool/deprecation')
      .set(as(admin.jwt))
      .send({ message: 'Co-owned now' })
      .expect(200);
    await put('bob-tool', bob.jwt, { message: 'Rewritten by bob' }).expect(200);
    await request(w.app.url).delete('/api/plugins/bob-tool/deprecation').set(as(bob.jwt)).expect(200);
    expect((await row('bob-tool')).deprecated_at).toBeNull();
  });

  it('a replacement that is deleted (operator SQL) is cleared: no dangling successor in the row, the detail or Link', async () => {
    await w.push(alice.token, 'gone-tool', body('gone-tool', '1.0.0')).expect(201);
    await put('aaa-tool', alice.jwt, { message: 'Use gone-tool', replacement: 'gone-tool' }).expect(200);
    await w.app.database.dataSource.query(`DELETE FROM plugin WHERE slug = 'gone-tool'`);
    expect(await row('aaa-tool')).toMatchObject({ deprecation_message: 'Use gone-tool', deprecated_replacement: null });
    expect((await request(w.app.url).get('/api/plugins/aaa-tool').set(as(bob.jwt)).expect(200)).body.deprecated).toMatchObject({
      replacement: null,
    });
    const latest = await request(w.app.url).get('/api/plugins/aaa-tool/latest').set(as(bob.jwt)).expect(200);
    expect(latest.headers.link).toBe(`<${w.app.config.baseUrl}/plugins/aaa-tool>; rel="deprecation"; type="text/html"`);
    await request(w.app.url).delete('/api/plugins/aaa-tool/deprecation').set(as(alice.jwt)).expect(200);
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'two plugins deprecated for each other at once: one wins, the other is refused 422 (PostgreSQL, two connections)',
    async () => {
      await w.push(alice.token, 'pair-a', body('pair-a', '1.0.0')).expect(201);
      await w.push(alice.token, 'pair-b', body('pair-b', '1.0.0')).expect(201);
      const db = w.app.database.dataSource;
      // Another connection holds both rows, so the two requests start together and queue behind it.
      const holder = db.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      try {
        await holder.query(`SELECT 1 FROM plugin WHERE slug IN ('pair-a', 'pair-b') FOR UPDATE`);
        const answers = Promise.all([
          put('pair-a', alice.jwt, { message: 'use b', replacement: 'pair-b' }).then((r) => r.status),
          put('pair-b', alice.jwt, { message: 'use a', replacement: 'pair-a' }).then((r) => r.status),
        ]);
        const deadline = Date.now() + 10_000;
        // The locking read of the plugin rows (its text is cut before FROM: the column list is long).
        const waiting = async () =>
          Number(
            (
              await db.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT "p"."id" AS "p_id"%'`,
              )
            )[0].n,
          );
        while ((await waiting()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        await holder.commitTransaction();
        expect((await answers).sort()).toEqual([200, 422]);
      } finally {
        if (holder.isTransactionActive) await holder.rollbackTransaction();
        await holder.release();
      }
      const pair = (await db.query(
        `SELECT slug, deprecated_replacement FROM plugin WHERE slug IN ('pair-a', 'pair-b') AND deprecated_at IS NOT NULL`,
      )) as unknown[];
      expect(pair).toHaveLength(1);
    },
  );
});
