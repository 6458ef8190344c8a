/**
 * Signed freshness on `latest` (docs/verifying-downloads.md#freshness): every answer carries a
 * statement, in the body and in `Registry-Freshness`, on the catalogue lane, through Express and
 * from the response cache; a new one is issued each reissue period and as soon as the answer
 * changes, no cached answer outlives it, and any instance signs the same bytes for the same answer.
 * The clock is the application's, replaced by one the test moves.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { type FreshnessStatement, verifyFreshness } from '../../src/lib/freshness';
import type { KeySet } from '../../src/lib/integrity';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { FRESHNESS_KEY_REUSE_MS, IntegrityService } from '../../src/trust/integrity/integrity.service';
import { FreshnessService } from '../../src/trust/freshness/freshness.service';

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const LIFETIME_S = 3600;
// min(an hour, half the lifetime)
const PERIOD_MS = (LIFETIME_S / 2) * 1000;

describe('signed freshness on latest', () => {
  let w: PublishWorld;
  let token: string;
  let keys: KeySet;
  const clock = new MovableClock();

  /** `GET path` anonymously (the catalogue lane, and the response cache) or with credentials (Express, no cache). */
  const read = (path: string, via: 'lane' | 'express' = 'lane') => {
    const req = request(w.app.url).get(path).set('User-Agent', 'test-client');
    return (via === 'express' ? req.set('Authorization', 'Bearer not-a-token') : req).expect(200);
  };
  /** The statement an answer carries, checked: body and header agree, and it verifies now. */
  const statementOf = async (res: request.Response, platform: string): Promise<{ jws: string; statement: FreshnessStatement }> => {
    expect(res.headers['registry-freshness']).toBe(res.body.freshness);
    const result = await verifyFreshness(res.body.freshness as string, keys, { slug: res.body.slug, platform }, clock.now());
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return { jws: res.body.freshness as string, statement: result.statement };
  };
  const publish = (slug: string, version: string, names: string[]) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version }),
        manifestSource: 'plugin.yaml',
        version,
        assets: names.map((name) => ({ name, url: w.forge.asset(`/acme/${slug}/${version}/${name}`, { size: 100 + name.length }) })),
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);
  /** Where the plugin's last release, yank or unyank entry put the log: the tree size its statements name. */
  const logSize = async (slug: string) =>
    Number((await w.app.database.dataSource.query('SELECT log_size FROM plugin WHERE slug = $1', [slug]))[0].log_size);

  beforeAll(async () => {
    w = await publishWorld({ FRESHNESS_LIFETIME_SECONDS: String(LIFETIME_S), RESPONSE_CACHE_TTL_S: '600' }, {}, undefined, { clock });
    token = (await w.tokenFor('fresh-author', ['publish:*', 'yank:*'])).token;
    await publish('tool', '1.0.0', ['tool-linux-x64.tgz', 'tool.wasm']);
    await publish('tool', '1.1.0', ['tool-linux-x64.tgz', 'tool.wasm']);
    keys = (await request(w.app.url).get('/.well-known/registry-key.json').expect(200)).body as KeySet;
  });
  afterAll(() => w?.close());

  it('carries one statement on the lane, through Express and from the cache, naming the answer exactly', async () => {
    const lane = await read('/api/plugins/tool/latest?os=linux&arch=x64');
    const { jws, statement } = await statementOf(lane, 'linux-x64');
    expect(statement).toEqual({
      slug: 'tool',
      version: '1.1.0',
      platform: { os: 'linux', arch: 'x64' },
      asset_sha256: lane.body.platforms['linux-x64'].sha256,
      issued_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      expires_at: expect.any(String),
      tree_size: expect.any(Number),
    });
    expect(Date.parse(statement.expires_at) - Date.parse(statement.issued_at)).toBe(LIFETIME_S * 1000);
    const [header] = jws.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: keys.keys[0].kid,
      typ: 'registry-freshness+jws',
    });

    const express = await read('/api/plugins/tool/latest?os=linux&arch=x64', 'express');
    expect(express.headers['x-cache']).toBeUndefined();
    expect(express.body.freshness).toBe(jws);
    // Stored on the second ask, replayed on the third, header and all.
    await read('/api/plugins/tool/latest?os=linux&arch=x64');
    const hit = await read('/api/plugins/tool/latest?os=linux&arch=x64');
    expect(hit.headers['x-cache']).toBe('hit');
    expect(hit.headers['registry-freshness']).toBe(jws);
    expect(hit.body.freshness).toBe(jws);
    // A 304 (from the cache, and from the lane) carries it too.
    for (const via of ['lane', 'express'] as const) {
      const req = request(w.app.url)
        .get('/api/plugins/tool/latest?os=linux&arch=x64')
        .set('User-Agent', 'test-client')
        .set('If-None-Match', hit.headers.etag);
      const unchanged = await (via === 'express' ? req.set('Authorization', 'Bearer not-a-token') : req).expect(304);
      expect(unchanged.headers['registry-freshness']).toBe(jws);
    }

    // The universal fallback has its own statement, over the same log position: just past 1.1.0's entry.
    const universal = await statementOf(await read('/api/plugins/tool/latest'), 'universal');
    expect(universal.statement).toMatchObject({
      platform: 'universal',
      version: '1.1.0',
      asset_sha256: lane.body.platforms.universal.sha256,
    });
    const release = await request(w.app.url).get('/api/plugins/tool/releases/1.1.0').expect(200);
    expect(statement.tree_size).toBe(release.body.log_index + 1);
    expect(universal.statement.tree_size).toBe(statement.tree_size);
    // Issued at the start of its reissue period, expiring a lifetime later.
    expect(Date.parse(statement.issued_at) % PERIOD_MS).toBe(0);
    expect(clock.nowMs() - Date.parse(statement.issued_at)).toBeLessThan(PERIOD_MS);
  });

  it('carries a statement for the whole release on /releases/latest (Express and its cache)', async () => {
    const first = await read('/api/plugins/tool/releases/latest');
    const { jws, statement } = await statementOf(first, 'all');
    expect(statement).toMatchObject({ slug: 'tool', version: '1.1.0', platform: 'all', asset_sha256: null });
    await read('/api/plugins/tool/releases/latest');
    const hit = await read('/api/plugins/tool/releases/latest');
    expect(hit.headers['x-cache']).toBe('hit');
    expect([hit.body.freshness, hit.headers['registry-freshness']]).toEqual([jws, jws]);
  });

  it('serves the same statement through its reissue period, then the next; no cached answer outlives it, none expired is served', async () => {
    const path = '/api/plugins/tool/latest?os=linux&arch=x64&prerelease=0';
    const first = await statementOf(await read(path), 'linux-x64');
    const issuedMs = Date.parse(first.statement.issued_at);
    // Just before the period ends: the same statement, stored in the cache on this second ask.
    clock.offsetMs = issuedMs + PERIOD_MS - 2_000 - Date.now();
    expect((await read(path)).body.freshness).toBe(first.jws);
    expect((await read(path)).headers['x-cache']).toBe('hit');
    // Past it, within the cache's 600 s TTL: the cached answer is not replayed, the next period's statement is served.
    clock.offsetMs = issuedMs + PERIOD_MS + 1_000 - Date.now();
    const after = await read(path);
    expect(after.headers['x-cache']).toBe('miss');
    const second = await statementOf(after, 'linux-x64');
    expect(second.jws).not.toBe(first.jws);
    expect(Date.parse(second.statement.issued_at)).toBe(issuedMs + PERIOD_MS);
    expect(second.statement).toMatchObject({ version: '1.1.0', tree_size: first.statement.tree_size });
    // Every other reader of the platform gets the same bytes.
    expect((await read('/api/plugins/tool/latest?os=linux&arch=x64', 'express')).body.freshness).toBe(second.jws);

    // Far past the first statement's expiry: what is served verifies at that time, cache or not.
    clock.offsetMs = issuedMs + 5 * LIFETIME_S * 1000 - Date.now();
    for (let ask = 0; ask < 3; ask++) {
      const res = await read(path);
      const { statement } = await statementOf(res, 'linux-x64');
      expect(Date.parse(statement.expires_at)).toBeGreaterThan(clock.nowMs());
    }
  });

  it('signs a new statement when the answer changes: a new release, then its yank (a larger log)', async () => {
    const path = '/api/plugins/tool/latest?os=linux&arch=x64';
    const before = await statementOf(await read(path), 'linux-x64');
    await publish('tool', '1.2.0', ['tool-linux-x64.tgz', 'tool.wasm']);
    const released = await statementOf(await read(path), 'linux-x64');
    expect(released.statement.version).toBe('1.2.0');
    expect(released.statement.tree_size).toBeGreaterThan(before.statement.tree_size);
    await request(w.app.url)
      .post('/api/publish/tool/yank')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '1.2.0', reason: 'broken' })
      .expect(200);
    const yanked = await statementOf(await read(path), 'linux-x64');
    expect(yanked.statement.version).toBe('1.1.0');
    expect(yanked.statement.tree_size).toBeGreaterThan(released.statement.tree_size);
    // A client that saw 1.2.0 accepts the step back only because the log grew.
    const seen = { version: '1.2.0', tree_size: released.statement.tree_size, issued_at: released.statement.issued_at };
    const verdict = await verifyFreshness(yanked.jws, keys, { slug: 'tool', platform: 'linux-x64' }, clock.now(), seen);
    expect(verdict.ok ? 'ok' : verdict.code).toBe('ok');
    // The yank was the log's last entry: the tree size is what /api/log/head says now.
    const head = (await request(w.app.url).get('/api/log/head').expect(200)).text;
    expect(Number(head.split('\n')[1])).toBe(yanked.statement.tree_size);
    expect(await logSize('tool')).toBe(yanked.statement.tree_size);
    // Another plugin's release grows the log but changes nothing of this answer: the same statement.
    await publish('other', '1.0.0', ['other.wasm']);
    expect((await read(path, 'express')).body.freshness).toBe(yanked.jws);
  });

  it('steps back after an administrator deletes the latest release: the deletion is logged, so a client accepts the lower version', async () => {
    await publish('gone', '1.0.0', ['gone.wasm']);
    await publish('gone', '1.1.0', ['gone.wasm']);
    const before = await statementOf(await read('/api/plugins/gone/latest', 'express'), 'universal');
    expect(before.statement.version).toBe('1.1.0');
    const admin = await userWithSession(w.app, 'fresh-admin', 'admin');
    await request(w.app.url).delete('/api/admin/plugins/gone/releases/1.1.0').set('Authorization', `Bearer ${admin.jwt}`).expect(204);
    const after = await statementOf(await read('/api/plugins/gone/latest', 'express'), 'universal');
    expect(after.statement.version).toBe('1.0.0');
    const head = (await request(w.app.url).get('/api/log/head').expect(200)).text;
    expect(after.statement.tree_size).toBe(Number(head.split('\n')[1]));
    const entry = (
      await request(w.app.url)
        .get(`/api/log/entries/${after.statement.tree_size - 1}`)
        .expect(200)
    ).body;
    expect(entry.entry).toEqual({ type: 'delete', slug: 'gone', version: '1.1.0' });
    const seen = { version: '1.1.0', tree_size: before.statement.tree_size, issued_at: before.statement.issued_at };
    const verdict = await verifyFreshness(after.jws, keys, { slug: 'gone', platform: 'universal' }, clock.now(), seen);
    expect(verdict.ok ? 'ok' : verdict.code).toBe('ok');
  });

  it('signs the same bytes on any instance for the same answer: nothing stored, nothing to agree through', async () => {
    const path = '/api/plugins/tool/latest?os=linux&arch=x64';
    const served = await statementOf(await read(path, 'express'), 'linux-x64');
    // A second service, as another instance has, with no statement of its own yet.
    const elsewhere = new FreshnessService(w.app.config, w.app.app.get(IntegrityService), clock);
    const { statement } = served;
    const again = await elsewhere.statementFor({
      slug: statement.slug,
      version: statement.version,
      platform: statement.platform,
      assetSha256: statement.asset_sha256,
      treeSize: statement.tree_size,
    });
    expect(again).toBe(served.jws);
    const tables = await w.app.database.dataSource.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'freshness_statement'`);
    expect(tables).toEqual([{ n: 0 }]);
  });

  it('answers without a statement while the signing key cannot be decrypted; signs again once it can', async () => {
    await publish('keyless', '1.0.0', ['keyless.wasm']);
    const sql = (text: string, params: unknown[] = []) => w.app.database.dataSource.query(text, params);
    const [{ tag }] = await sql(`SELECT private_key_tag AS tag FROM signing_key WHERE state = 'current'`);
    const altered = Buffer.from(tag as Buffer);
    altered[0] ^= 0xff;
    await sql(`UPDATE signing_key SET private_key_tag = $1 WHERE state = 'current'`, [altered]);
    // Past the time a key once read is reused for statements: the next one reads (and fails) again.
    clock.offsetMs += FRESHNESS_KEY_REUSE_MS;
    try {
      const res = await read('/api/plugins/keyless/latest', 'express');
      expect(res.body).toMatchObject({ slug: 'keyless', version: '1.0.0', freshness: null });
      expect(res.headers['registry-freshness']).toBeUndefined();
    } finally {
      await sql(`UPDATE signing_key SET private_key_tag = $1 WHERE state = 'current'`, [tag]);
      clock.offsetMs += FRESHNESS_KEY_REUSE_MS;
    }
    const { statement } = await statementOf(await read('/api/plugins/keyless/latest', 'express'), 'universal');
    expect(statement).toMatchObject({ slug: 'keyless', version: '1.0.0', tree_size: await logSize('keyless') });
  });
});
