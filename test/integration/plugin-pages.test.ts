/**
 * Stored plugin pages (plugin_page) against a real database (PGlite by default, PostgreSQL with
 * DATABASE_URL): the triggers log a plugin in the transaction of every write that changes what its
 * page shows, the stored page stops answering at once, the builder stores it again, and the stored
 * page is always exactly the detail an anonymous caller would be answered.
 */
import type { DataSource } from 'typeorm';
import type { Clock } from '../../src/common/clock';
import { CatalogueReads } from '../../src/persistence/catalogue-reads';
import type { ReadReplicas } from '../../src/persistence/read-replicas';
import { Metrics } from '../../src/platform/metrics/metrics';
import { PAGE_FORMAT, PluginDetailService } from '../../src/catalogue/plugins/plugin-detail.service';
import { PluginPageBuilder } from '../../src/catalogue/plugins/plugin-page-builder';
import { PluginPageRepository } from '../../src/catalogue/plugins/plugin-page.repository';
import { ReleaseReadmesRepository } from '../../src/catalogue/plugins/release-readmes.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;
let pages: PluginPageRepository;
let details: PluginDetailService;
let builder: PluginPageBuilder;
let pluginId: string;
let olderRelease: string;
let userId: string;

const readme = (html: string) => ({ html, markdown: '', context: { kind: 'none' as const }, renderVersion: 1 });

async function plugin(slug: string): Promise<string> {
  const [{ id }] = await dataSource.query(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $2) RETURNING id`, [
    slug,
    `https://forge.test/acme/${slug}`,
  ]);
  return id;
}

async function release(id: string, version: string): Promise<string> {
  const [{ id: releaseId }] = await dataSource.query(
    `INSERT INTO release (plugin_id, version, version_key, version_sort, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source)
     VALUES ($1, $2, $2, $2, '[]', $3, '', '{}', $4, 'push') RETURNING id`,
    [id, version, JSON.stringify({ name: 'paged', version }), '0'.repeat(64)],
  );
  return releaseId;
}

/** `latest`'s candidates as read from the releases (a format no code builds never matches a stored page). */
const candidatesAsRead = (slug: string) => pages.latestCandidates(slug, 'read-them-whole');

/** What an anonymous caller asking for no language is answered, read as it is (never from plugin_page). */
async function detailAsRead(slug: string): Promise<string> {
  return JSON.stringify(await details.detail(slug, undefined, null));
}

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
  pages = new PluginPageRepository(dataSource);
  const reads = new CatalogueReads(dataSource, { pick: () => null } as unknown as ReadReplicas, { nowMs: () => Date.now() } as Clock);
  details = new PluginDetailService(pages, new ReleaseReadmesRepository(dataSource), reads, true);
  builder = new PluginPageBuilder(pages, details, new Metrics(), true);
  pluginId = await plugin('paged');
  olderRelease = await release(pluginId, '1.0.0');
  await release(pluginId, '1.1.0');
  await dataSource.transaction((manager) =>
    new ReleaseReadmesRepository(dataSource).insertForRelease(
      olderRelease,
      { de: readme('<p>hallo</p>'), default: readme('<p>hi</p>') },
      manager,
    ),
  );
  [{ id: userId }] = await dataSource.query(
    `INSERT INTO user_account (instance, provider_user_id, login) VALUES ('github.com', '42', 'owner') RETURNING id`,
  );
  await dataSource.query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [pluginId, userId]);
});
afterAll(() => opened?.close());

describe('stored plugin pages', () => {
  it('are built for every marked plugin and answer exactly what the page read answers', async () => {
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBeNull();
    expect(await builder.buildMarked()).toBeGreaterThanOrEqual(1);
    const stored = await pages.storedPage('paged', PAGE_FORMAT);
    expect(stored).toBe(await detailAsRead('paged'));
    expect(await details.detailJson('paged', undefined)).toBe(stored);
    expect(JSON.parse(stored!)).toMatchObject({
      slug: 'paged',
      latestVersion: null,
      owners: [{ login: 'owner' }],
      releases: [{ version: '1.1.0' }, { version: '1.0.0' }],
    });
    expect(await pages.pendingCount()).toBe(0);
    // A language asked for is read as it is; so is a page another build of the code stored.
    expect(await details.detailJson('paged', 'de')).toBe(JSON.stringify(await details.detail('paged', 'de', null)));
    expect(await pages.storedPage('paged', 'some-other-format')).toBeNull();
    // `latest`'s candidates come stored with it: the same as read, and from the store (marked here).
    const candidates = await candidatesAsRead('paged');
    // 1.1.0 is live, stable and asks no runtime: every query stops there, 1.0.0 is never weighed.
    expect(candidates?.releases.map((r) => r.version)).toEqual(['1.1.0']);
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual(candidates);
    await dataSource.query(`UPDATE plugin_page SET latest = '[]' WHERE plugin_id = $1`, [pluginId]);
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual({
      slug: 'paged',
      releases: [],
      deprecation: null,
      logSize: candidates?.logSize,
    });
    await dataSource.query(`UPDATE plugin SET featured = featured WHERE id = $1`, [pluginId]);
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual(candidates);
    expect(await pages.latestCandidates('nobody', PAGE_FORMAT)).toBeNull();
  });

  it("hold `latest`'s candidates down to the first release every query accepts, each asset with what the answer uses", async () => {
    const id = await plugin('weighed');
    const asset = {
      name: 'weighed.zip',
      url: 'https://forge.test/weighed.zip',
      size: 10,
      sha256: 'a'.repeat(64),
      hashed: true,
      contentType: 'application/zip',
      os: 'linux',
      arch: 'x64',
    };
    const add = (version: string, sort: string, columns: { prerelease?: boolean; yanked?: boolean; minRuntime?: string }) =>
      dataSource.query(
        `INSERT INTO release (plugin_id, version, version_key, version_sort, prerelease, yanked_at, min_runtime_version, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source)
         VALUES ($1, $2, $2, $3, $4, $5, $6, $7, '{}', '', '{}', $8, 'push')`,
        [
          id,
          version,
          sort,
          columns.prerelease ?? false,
          columns.yanked ? new Date() : null,
          columns.minRuntime ?? null,
          JSON.stringify([asset]),
          '0'.repeat(64),
        ],
      );
    await add('4.0.0-rc.1', '5', { prerelease: true });
    await add('3.0.0', '4', { yanked: true });
    await add('2.0.0', '3', { minRuntime: '>=5' });
    await add('1.5.0', '2', {});
    await add('1.0.0', '1', {});
    const read = await candidatesAsRead('weighed');
    expect(read?.releases.map((r) => [r.version, r.prerelease, r.yanked, r.minRuntimeVersion])).toEqual([
      ['4.0.0-rc.1', true, false, null],
      ['3.0.0', false, true, null],
      ['2.0.0', false, false, '>=5'],
      ['1.5.0', false, false, null],
    ]);
    expect(read?.releases[0].assets).toEqual([
      { name: 'weighed.zip', size: 10, sha256: 'a'.repeat(64), hashed: true, os: 'linux', arch: 'x64' },
    ]);
    await builder.buildMarked();
    expect(await pages.latestCandidates('weighed', PAGE_FORMAT)).toEqual(read);
    // Yanking the release that closed the list opens it down to the next one every query accepts.
    await dataSource.query(`UPDATE release SET yanked_at = now() WHERE plugin_id = $1 AND version = '1.5.0'`, [id]);
    expect((await pages.latestCandidates('weighed', PAGE_FORMAT))?.releases.map((r) => r.version)).toEqual([
      '4.0.0-rc.1',
      '3.0.0',
      '2.0.0',
      '1.5.0',
      '1.0.0',
    ]);
  });

  const writes: [string, () => Promise<unknown>][] = [
    ['the plugin row (a verification)', () => dataSource.query(`UPDATE plugin SET verified_at = now() WHERE id = $1`, [pluginId])],
    ['a download count', () => dataSource.query(`UPDATE release SET downloads = downloads + 5 WHERE plugin_id = $1`, [pluginId])],
    [
      'a yank',
      () =>
        dataSource.query(`UPDATE release SET yanked_at = now(), yank_reason = 'broken' WHERE plugin_id = $1 AND version = '1.1.0'`, [
          pluginId,
        ]),
    ],
    ['a new release', () => release(pluginId, '1.2.0')],
    ['a release deleted', () => dataSource.query(`DELETE FROM release WHERE plugin_id = $1 AND version = '1.2.0'`, [pluginId])],
    [
      'a README rendered again',
      () => dataSource.query(`UPDATE release_readme SET html = '<p>hi!</p>' WHERE release_id = $1 AND locale = 'default'`, [olderRelease]),
    ],
    ['a README removed', () => dataSource.query(`DELETE FROM release_readme WHERE release_id = $1 AND locale = 'de'`, [olderRelease])],
    ['an owner renamed', () => dataSource.query(`UPDATE user_account SET login = 'renamed' WHERE id = $1`, [userId])],
    ['an owner removed', () => dataSource.query(`DELETE FROM plugin_owner WHERE plugin_id = $1`, [pluginId])],
    ['an owner added', () => dataSource.query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [pluginId, userId])],
  ];

  it.each(writes)('stop answering in the transaction of %s, and are built again', async (_what, write) => {
    await builder.buildMarked();
    const before = await pages.storedPage('paged', PAGE_FORMAT);
    expect(before).not.toBeNull();
    await write();
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBeNull();
    const after = await detailAsRead('paged');
    expect(after).not.toBe(before);
    expect(await details.detailJson('paged', undefined)).toBe(after);
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual(await candidatesAsRead('paged'));
    expect(await builder.buildMarked()).toBe(1);
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(after);
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual(await candidatesAsRead('paged'));
  });

  it('stay current through writes that do not change the page', async () => {
    await builder.buildMarked();
    const other = await plugin('elsewhere');
    await release(other, '2.0.0');
    await dataSource.query(`UPDATE user_account SET email = 'owner@forge.test' WHERE id = $1`, [userId]);
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(await detailAsRead('paged'));
    expect(await builder.buildMarked()).toBe(1);
  });

  it('do not answer for a write that commits while they are being built, and are built again', async () => {
    await dataSource.query(`UPDATE plugin SET featured = true WHERE id = $1`, [pluginId]);
    let write: Promise<unknown> = Promise.resolve();
    await pages.buildPending(10, PAGE_FORMAT, async (page, manager) => {
      // Another connection writes after the page was read (on PGlite, after this transaction).
      write = dataSource.query(`UPDATE release SET downloads = downloads + 1 WHERE plugin_id = $1`, [pluginId]);
      return details.storedPageOf(page, manager);
    });
    await write;
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBeNull();
    expect(await pages.pendingCount()).toBe(1);
    await builder.buildMarked();
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(await detailAsRead('paged'));
  });

  it('built by other code are built again by the next builder, and a deleted plugin leaves nothing behind', async () => {
    await builder.buildMarked();
    await dataSource.query(`UPDATE plugin_page SET format = 'older-code'`);
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBeNull();
    const next = new PluginPageBuilder(pages, details, new Metrics(), true);
    expect(await next.buildMarked()).toBeGreaterThanOrEqual(1);
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(await detailAsRead('paged'));

    const doomed = await plugin('doomed');
    await dataSource.query(`DELETE FROM plugin WHERE id = $1`, [doomed]);
    expect(await next.buildMarked()).toBe(1);
    expect(await dataSource.query(`SELECT 1 FROM plugin_page WHERE plugin_id = $1`, [doomed])).toEqual([]);
    expect(await pages.pendingCount()).toBe(0);
    await expect(details.detailJson('doomed', undefined)).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('add no lock between writers: two transactions writing other releases of the same two plugins in opposite orders both commit', async () => {
    if (opened.kind !== 'postgres') return; // PGlite has one session: its transactions never overlap
    const second = await plugin('second');
    await release(second, '1.0.0');
    await release(second, '1.1.0');
    const a = dataSource.createQueryRunner();
    const b = dataSource.createQueryRunner();
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.startTransaction();
      await b.startTransaction();
      const bump = (runner: typeof a, id: string, version: string) =>
        runner.query(`UPDATE release SET downloads = downloads + 1 WHERE plugin_id = $1 AND version = $2`, [id, version]);
      await bump(a, pluginId, '1.0.0');
      await bump(b, second, '1.0.0');
      // Had logging locked the plugins (a stamp on their rows, as a first design did), each would now wait for the other.
      await Promise.all([
        bump(a, second, '1.1.0').then(() => a.commitTransaction()),
        bump(b, pluginId, '1.1.0').then(() => b.commitTransaction()),
      ]);
    } finally {
      await Promise.all([a.release(), b.release()]);
    }
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBeNull();
    await builder.buildMarked();
    expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(await detailAsRead('paged'));
  });

  it('are built and answer while an older transaction stays open (a long report, a backup)', async () => {
    if (opened.kind !== 'postgres') return; // PGlite has one session: its transactions never overlap
    const open = dataSource.createQueryRunner();
    await open.connect();
    await open.startTransaction();
    await open.query('SELECT pg_current_xact_id()');
    try {
      await dataSource.query(`UPDATE plugin SET featured = false WHERE id = $1`, [pluginId]);
      expect(await builder.buildMarked()).toBe(1);
      expect(await pages.storedPage('paged', PAGE_FORMAT)).toBe(await detailAsRead('paged'));
    } finally {
      await open.rollbackTransaction();
      await open.release();
    }
  });

  it("compact the log they take from: a builder's first pass, and once 1,000 logged writes were taken", async () => {
    const logPages = async () => Number((await dataSource.query(`SELECT pg_relation_size('plugin_page_change') AS bytes`))[0].bytes) / 8192;
    const logWrites = (n: number) =>
      dataSource.query(
        `INSERT INTO plugin_page_change (plugin_id, txid) SELECT $1, pg_current_xact_id()::text::bigint FROM generate_series(1, $2::int)`,
        [pluginId, n],
      );
    const fresh = new PluginPageBuilder(pages, details, new Metrics(), true);
    await logWrites(3_000);
    expect(await logPages()).toBeGreaterThan(10);
    expect(await fresh.buildMarked()).toBe(1);
    // Every row was dead, so the vacuum truncated the table whole.
    expect(await logPages()).toBe(0);
    await logWrites(600);
    expect(await fresh.buildMarked()).toBe(1);
    expect(await logPages()).toBeGreaterThan(0);
    await logWrites(600);
    expect(await fresh.buildMarked()).toBe(1);
    expect(await logPages()).toBe(0);
    expect(await pages.pendingCount()).toBe(0);
  });

  it('are not stored where pages are read whole (the embedded default): the log is cleared and every answer read', async () => {
    await dataSource.query(`UPDATE plugin SET featured = true WHERE id = $1`, [pluginId]);
    const reads = new CatalogueReads(dataSource, { pick: () => null } as unknown as ReadReplicas, { nowMs: () => Date.now() } as Clock);
    const readWhole = new PluginDetailService(pages, new ReleaseReadmesRepository(dataSource), reads, false);
    expect(await new PluginPageBuilder(pages, readWhole, new Metrics(), false).buildMarked()).toBe(0);
    expect(await pages.pendingCount()).toBe(0);
    expect(await dataSource.query(`SELECT 1 FROM plugin_page`)).toEqual([]);
    expect(await readWhole.detailJson('paged', undefined)).toBe(await detailAsRead('paged'));
    expect(await pages.latestCandidates('paged', PAGE_FORMAT)).toEqual(await candidatesAsRead('paged'));
  });
});
