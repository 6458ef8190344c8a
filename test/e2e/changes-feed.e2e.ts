import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { captureLog } from '../support/log-capture';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

interface Change {
  cursor: string;
  type: string;
  slug: string | null;
  version: string | null;
  data: Record<string, unknown>;
  at: string;
}

describe('GET /api/changes', () => {
  let w: PublishWorld;
  let token: string;
  let admin: { Authorization: string };
  const log = captureLog();
  const feed = (query = '') => request(w.app.url).get(`/api/changes${query}`);
  const publish = (slug: string, version: string) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 300 }) }],
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);
  /** Every change after `since`, walked page by page. */
  const walk = async (since: string | null, limit: number) => {
    const all: Change[] = [];
    let cursor = since;
    for (;;) {
      const res = await feed(`?limit=${limit}${cursor === null ? '' : `&since=${cursor}`}`).expect(200);
      all.push(...(res.body.changes as Change[]));
      cursor = res.body.next;
      if (!res.body.more) return { all, next: cursor };
    }
  };

  beforeAll(async () => {
    w = await publishWorld({}, {}, createLogger('info', log.stream));
    token = (await w.tokenFor('feed-author', ['publish:*', 'yank:*'])).token;
    admin = { Authorization: `Bearer ${(await userWithSession(w.app, 'feed-root', 'admin')).jwt}` };
  });
  afterAll(() => w?.close());

  it('logs every public change in order, with public fields only, and nothing else', async () => {
    const start = (await feed().expect(200)).body;
    expect(start).toEqual({ changes: [], next: '0', more: false });
    await publish('feed-one', '1.0.0');
    await publish('feed-one', '1.1.0');
    await request(w.app.url)
      .post('/api/publish/feed-one/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.1.0', reason: 'broken build' })
      .expect(200);
    await request(w.app.url)
      .post('/api/publish/feed-one/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.1.0', undo: true })
      .expect(200);
    await request(w.app.url).post('/api/admin/plugins/feed-one/verify').set(admin).expect(200);
    await request(w.app.url).post('/api/admin/plugins/feed-one/unverify').set(admin).expect(200);
    await request(w.app.url).delete('/api/admin/plugins/feed-one/releases/1.1.0').set(admin).expect(204);
    await request(w.app.url).post('/api/admin/keys/rotate').set(admin).expect(200);
    // Not public catalogue state: no change.
    await request(w.app.url).get('/api/admin/audit').set(admin).expect(200);

    const { all, next } = await walk(null, 100);
    expect(all.map((c) => [c.type, c.slug, c.version])).toEqual([
      ['release.published', 'feed-one', '1.0.0'],
      ['release.published', 'feed-one', '1.1.0'],
      ['release.yanked', 'feed-one', '1.1.0'],
      ['release.unyanked', 'feed-one', '1.1.0'],
      ['plugin.verified', 'feed-one', null],
      ['plugin.unverified', 'feed-one', null],
      ['release.deleted', 'feed-one', '1.1.0'],
      ['keys.changed', null, null],
    ]);
    const kid = (await w.audit('plugin.publish'))[0].details.kid;
    expect(all[0].data).toEqual({ kid });
    expect(all[2].data).toEqual({ reason: 'broken build' });
    expect(all[7].data).toEqual({ reason: 'rotate' });
    // Cursors ascend, timestamps are ISO; no actor, address or user id ever.
    expect(all.map((c) => BigInt(c.cursor))).toEqual([...all.map((c) => BigInt(c.cursor))].sort((a, b) => (a < b ? -1 : 1)));
    expect(all.every((c) => !Number.isNaN(Date.parse(c.at)))).toBe(true);
    expect(JSON.stringify(all)).not.toMatch(/actor|127\.0\.0\.1|userId/);
    expect(next).toBe(all.at(-1)!.cursor);
    // Nothing new: the same cursor back, no more.
    expect((await feed(`?since=${next}`).expect(200)).body).toEqual({ changes: [], next, more: false });
  });

  it('pages with a stable cursor: small pages walk the same feed as one big one', async () => {
    const whole = await walk(null, 1000);
    const paged = await walk(null, 3);
    expect(paged.all).toEqual(whole.all);
    const first = (await feed('?limit=3').expect(200)).body;
    expect(first.more).toBe(true);
    expect(first.next).toBe(first.changes[2].cursor);
    const rest = await walk(first.next, 2);
    expect(rest.all).toEqual(whole.all.slice(3));
  });

  it('logs a deleted plugin, whatever path deletes it', async () => {
    await publish('feed-gone', '1.0.0');
    const before = (await walk(null, 1000)).next;
    await w.app.database.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query('SELECT id FROM plugin WHERE slug = $1', ['feed-gone']);
      await manager.query('DELETE FROM release WHERE plugin_id = $1', [id]);
      await manager.query('DELETE FROM plugin_owner WHERE plugin_id = $1', [id]);
      await manager.query('DELETE FROM plugin WHERE id = $1', [id]);
    });
    const after = await walk(before, 100);
    expect(after.all.map((c) => [c.type, c.slug, c.version, c.data])).toEqual([['plugin.deleted', 'feed-gone', null, {}]]);
  });

  it('maps every public audit action, deprecations (added on another branch) included, and skips the private ones', async () => {
    const before = (await walk(null, 1000)).next;
    const audit = (action: string, slug: string | null, details: Record<string, unknown>) =>
      w.app.database.dataSource.query('INSERT INTO audit_entry (action, slug, ip, details) VALUES ($1, $2, $3, $4::jsonb)', [
        action,
        slug,
        '10.1.2.3',
        JSON.stringify(details),
      ]);
    await audit('plugin.deprecate', 'feed-one', { message: 'use feed-two', replacement: 'feed-two', by: 'someone' });
    await audit('plugin.undeprecate', 'feed-one', {});
    await audit('plugin.feature', 'feed-one', {});
    await audit('plugin.unfeature', 'feed-one', {});
    await audit('plugin.owners_change', 'feed-one', { before: ['u1'], after: ['u2'] });
    await audit('plugin.manifest_refresh', 'feed-one', { version: '1.0.0' });
    await audit('key.resign', null, { kid: 'old', resignedWith: 'new', resigned: 3, failed: 0, via: 'cli' });
    for (const action of ['plugin.claim', 'plugin.publish_denied', 'token.create', 'user.sign_in', 'settings.update'])
      await audit(action, 'feed-one', { secret: 'x' });
    const { all } = await walk(before, 100);
    expect(all.map((c) => [c.type, c.slug, c.version, c.data])).toEqual([
      ['plugin.deprecated', 'feed-one', null, { message: 'use feed-two', replacement: 'feed-two' }],
      ['plugin.undeprecated', 'feed-one', null, {}],
      ['plugin.featured', 'feed-one', null, {}],
      ['plugin.unfeatured', 'feed-one', null, {}],
      ['plugin.owners_changed', 'feed-one', null, {}],
      ['plugin.updated', 'feed-one', null, {}],
      ['keys.changed', null, null, { reason: 'resign', kid: 'old', resignedWith: 'new' }],
    ]);
  });

  it('writes nothing for a change that rolls back', async () => {
    const before = (await walk(null, 1000)).next;
    await expect(
      w.app.database.dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.verify', 'feed-one', '{}')`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await feed(`?since=${before}`).expect(200)).body.changes).toEqual([]);
  });

  it.each([
    ['?since=abc', 'since'],
    ['?since=-1', 'since'],
    ['?since=01', 'since'],
    ['?since=1&since=2', 'since'],
    ['?since=1234567890123456789', 'since'],
    // Past the newest change: another registry's cursor, or one from before a restore.
    ['?since=99999999', 'since'],
    ['?limit=0', 'limit'],
    ['?limit=1001', 'limit'],
    ['?limit=ten', 'limit'],
    ['?cursor=1', 'cursor'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const res = await feed(query).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  // Two connections: PostgreSQL only (the embedded engine has one).
  (process.env.DATABASE_URL ? it : it.skip)('never lets a later change show before an earlier one commits', async () => {
    const before = (await walk(null, 1000)).next;
    const first = w.app.database.dataSource.createQueryRunner();
    const second = w.app.database.dataSource.createQueryRunner();
    try {
      await first.startTransaction();
      await first.query(`INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.verify', 'feed-one', '{}')`);
      await second.startTransaction();
      // Waits for the first writer's lock: its seq can only come after the first's commits.
      const secondWrite = second.query(`INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.unverify', 'feed-one', '{}')`);
      expect((await feed(`?since=${before}`).expect(200)).body.changes).toEqual([]);
      await first.commitTransaction();
      await secondWrite;
      const between = (await feed(`?since=${before}`).expect(200)).body;
      expect(between.changes.map((c: Change) => c.type)).toEqual(['plugin.verified']);
      await second.commitTransaction();
      const after = (await feed(`?since=${between.next}`).expect(200)).body;
      expect(after.changes.map((c: Change) => c.type)).toEqual(['plugin.unverified']);
    } finally {
      await first.release();
      await second.release();
    }
  });

  // Two connections: PostgreSQL only.
  (process.env.DATABASE_URL ? it : it.skip)('stamps `at` in cursor order when a transaction that started first commits last', async () => {
    const before = (await walk(null, 1000)).next;
    const early = w.app.database.dataSource.createQueryRunner();
    const late = w.app.database.dataSource.createQueryRunner();
    try {
      await early.startTransaction();
      // Fixes the early transaction's start (now()) before the late one begins.
      await early.query('SELECT now()');
      await late.query('SELECT pg_sleep(0.02)');
      await late.startTransaction();
      await late.query(`INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.feature', 'feed-one', '{}')`);
      await late.commitTransaction();
      await early.query('SELECT pg_sleep(0.02)');
      await early.query(`INSERT INTO audit_entry (action, slug, details) VALUES ('plugin.unfeature', 'feed-one', '{}')`);
      await early.commitTransaction();
    } finally {
      await early.release();
      await late.release();
    }
    const { all } = await walk(before, 100);
    expect(all.map((c) => c.type)).toEqual(['plugin.featured', 'plugin.unfeatured']);
    // The early transaction's now() is before the late one's; its change is stamped after.
    expect(Date.parse(all[1].at)).toBeGreaterThanOrEqual(Date.parse(all[0].at));
    const [{ started }] = await w.app.database.dataSource.query(
      `SELECT to_char(min(a.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started FROM audit_entry a WHERE a.action = 'plugin.unfeature'`,
    );
    expect(Date.parse(started)).toBeLessThan(Date.parse(all[0].at));
  });

  describe('on the catalogue lane', () => {
    const COMPARED_HEADERS = [
      'content-type',
      'cache-control',
      'vary',
      'etag',
      'content-length',
      'x-cache',
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
    ];
    const leanLines = (url: string) =>
      log.lines
        .map((line) => JSON.parse(line) as { lean?: boolean; req?: { url?: string } })
        .filter((entry) => entry.lean === true && entry.req?.url === url);
    /** `GET path` anonymously (answered on the lane) or with a header that sends it to the controller (an unknown token reads as anonymous there). */
    const read = async (url: string, via: 'lean' | 'controller', extra: Record<string, string> = {}, method: 'get' | 'head' = 'get') => {
      let req = request(w.app.url)[method](url);
      for (const [name, value] of Object.entries(extra)) req = req.set(name, value);
      if (via === 'controller') req = req.set('Authorization', 'Bearer not-a-token');
      const res = await req;
      return {
        status: res.status,
        body: method === 'head' ? null : (res.body as unknown),
        headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers[h]])),
      };
    };

    it.each(['', '?limit=2', '?limit=0100', '?since=1&limit=3', '?limit=3&since=2', '?since=0', '?limit=1000'])(
      '/api/changes%s: answered on the lane, exactly as the controller answers it',
      async (query) => {
        const url = `/api/changes${query}`;
        const before = leanLines(url).length;
        const lean = await read(url, 'lean');
        expect(leanLines(url)).toHaveLength(before + 1);
        const controller = await read(url, 'controller');
        expect(leanLines(url)).toHaveLength(before + 1);
        expect(lean.status).toBe(200);
        expect(lean.headers['cache-control']).toBe('no-cache');
        expect(lean).toEqual(controller);
        expect(await read(url, 'lean', {}, 'head')).toEqual(await read(url, 'controller', {}, 'head'));
        const revalidated = await read(url, 'lean', { 'If-None-Match': lean.headers.etag! });
        expect(revalidated.status).toBe(304);
        expect(revalidated).toEqual(await read(url, 'controller', { 'If-None-Match': lean.headers.etag! }));
      },
    );

    it.each([
      '?since=abc',
      '?since=01',
      '?since=1&since=2',
      '?since[a]=1',
      '?limit=0',
      '?limit=1001',
      '?limit=1.5',
      '?limit=',
      '?since=',
      '?cursor=1',
      '?since=1&bogus=2',
      '?since=99999999',
    ])('/api/changes%s: handed to the controller, the same 400 on both paths', async (query) => {
      const url = `/api/changes${query}`;
      const lean = await read(url, 'lean');
      expect(lean.status).toBe(400);
      expect(lean.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(lean).toEqual(await read(url, 'controller'));
      expect(leanLines(url)).toHaveLength(0);
    });

    it('labels its answers with the route in the metrics and logs them under the request id', async () => {
      const res = await request(w.app.url).get('/api/changes?limit=1').set('X-Request-Id', 'trace-changes').expect(200);
      expect(res.headers['x-request-id']).toBe('trace-changes');
      expect((leanLines('/api/changes?limit=1').at(-1) as { req?: { id?: string } }).req?.id).toBe('trace-changes');
      const metrics = await (await fetch(`${w.app.url}/metrics`)).text();
      expect(metrics).toMatch(/registry_http_request_duration_seconds_count\{[^}]*route="\/api\/changes"[^}]*status="200"[^}]*\}/);
    });
  });
});
