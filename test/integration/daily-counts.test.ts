/**
 * Daily counts against a real database (PGlite by default, PostgreSQL with DATABASE_URL), with
 * the clock injected so day boundaries are exact (UTC): downloads counted on each day by the
 * batched counter, the series the downloads API answers, the daily prune, and the admin home's
 * activity grouped by day from the audit log. Both reads are index range scans.
 */
import type { DataSource } from 'typeorm';
import { AdminActivityService } from '../../src/operator/admin/admin-activity.service';
import { AuditRepository } from '../../src/platform/audit/audit.repository';
import { AuditEntryEntity } from '../../src/platform/audit/entities/audit-entry.entity';
import { Clock } from '../../src/common/clock';
import { CatalogueReads } from '../../src/persistence/catalogue-reads';
import type { ReadReplicas } from '../../src/persistence/read-replicas';
import { DOWNLOAD_DAYS_KEPT, DownloadCounter } from '../../src/catalogue/plugins/download-counter';
import { DownloadDaysRepository } from '../../src/catalogue/plugins/download-days.repository';
import { DownloadsService } from '../../src/catalogue/plugins/downloads.service';
import { PluginsRepository } from '../../src/catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../src/catalogue/plugins/releases.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

/** Time stands still where the test puts it. */
class ManualClock extends Clock {
  at = new Date('2026-11-27T12:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
}

let opened: OpenTestDatabase;
let dataSource: DataSource;
const clock = new ManualClock();
let counter: DownloadCounter;
let downloads: DownloadsService;
let pluginId: string;
let first: string;
let second: string;

const sql = (text: string, params: unknown[] = []) => dataSource.query(text, params);

async function plugin(slug: string): Promise<string> {
  const [{ id }] = await sql(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $2) RETURNING id`, [
    slug,
    `https://forge.test/acme/${slug}`,
  ]);
  return id;
}

async function release(id: string, version: string): Promise<string> {
  const [{ id: releaseId }] = await sql(
    `INSERT INTO release (plugin_id, version, version_key, version_sort, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source)
     VALUES ($1, $2, $2, $2, '[]', $3, '', '{}', $4, 'push') RETURNING id`,
    [id, version, JSON.stringify({ name: 'counted', version }), '0'.repeat(64)],
  );
  return releaseId;
}

const pluginDays = async (id: string) =>
  sql(`SELECT day::text AS day, downloads FROM plugin_download_day WHERE plugin_id = $1 ORDER BY day`, [id]);
const releaseDays = async (id: string) =>
  sql(`SELECT day::text AS day, downloads FROM release_download_day WHERE release_id = $1 ORDER BY day`, [id]);

/** The plan of `query` with sequential scans priced out, in one connection. */
async function planOf(query: string, params: unknown[]): Promise<string> {
  return dataSource.transaction(async (manager) => {
    await manager.query('SET LOCAL enable_seqscan = off');
    const rows: { 'QUERY PLAN': string }[] = await manager.query(`EXPLAIN ${query}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
  const releases = new ReleasesRepository(dataSource);
  const days = new DownloadDaysRepository(dataSource);
  counter = new DownloadCounter(releases, days, clock);
  const reads = new CatalogueReads(dataSource, { pick: () => null } as unknown as ReadReplicas, clock);
  downloads = new DownloadsService(new PluginsRepository(dataSource), releases, days, reads, clock);
  pluginId = await plugin('counted');
  first = await release(pluginId, '1.0.0');
  second = await release(pluginId, '1.1.0');
});
afterAll(() => opened?.close());

describe('downloads per day', () => {
  it('puts each download on the UTC day it was counted, across midnight, in one batched write', async () => {
    clock.at = new Date('2026-11-27T23:59:59.999Z');
    counter.count(first);
    counter.count(first);
    counter.count(second);
    clock.at = new Date('2026-11-28T00:00:00.000Z');
    counter.count(first);
    counter.count(first);
    counter.count(first);
    await counter.flush();

    expect(await releaseDays(first)).toEqual([
      { day: '2026-11-27', downloads: '2' },
      { day: '2026-11-28', downloads: '3' },
    ]);
    expect(await releaseDays(second)).toEqual([{ day: '2026-11-27', downloads: '1' }]);
    expect(await pluginDays(pluginId)).toEqual([
      { day: '2026-11-27', downloads: '3' },
      { day: '2026-11-28', downloads: '3' },
    ]);
    // The totals the catalogue shows, from the same statement.
    expect(await sql(`SELECT version, downloads FROM release WHERE plugin_id = $1 ORDER BY version`, [pluginId])).toEqual([
      { version: '1.0.0', downloads: '5' },
      { version: '1.1.0', downloads: '1' },
    ]);
    expect((await sql(`SELECT downloads FROM plugin WHERE id = $1`, [pluginId]))[0].downloads).toBe('6');
  });

  it('adds a later batch to the day already there, and drops the count of a release deleted before the write', async () => {
    const gone = await release(pluginId, '0.9.0');
    counter.count(second);
    counter.count(gone);
    await sql(`DELETE FROM release WHERE id = $1`, [gone]);
    await counter.flush();
    expect(await releaseDays(second)).toEqual([
      { day: '2026-11-27', downloads: '1' },
      { day: '2026-11-28', downloads: '1' },
    ]);
    expect(await pluginDays(pluginId)).toEqual([
      { day: '2026-11-27', downloads: '3' },
      { day: '2026-11-28', downloads: '4' },
    ]);
  });

  it('answers every day of the range, 0 where nothing was counted, for the plugin or one release', async () => {
    clock.at = new Date('2026-11-28T18:00:00.000Z');
    expect(await downloads.series('counted', { days: 3 })).toEqual({
      slug: 'counted',
      version: null,
      from: '2026-11-26',
      to: '2026-11-28',
      total: 7,
      series: [
        { day: '2026-11-26', downloads: 0 },
        { day: '2026-11-27', downloads: 3 },
        { day: '2026-11-28', downloads: 4 },
      ],
    });
    const ofRelease = await downloads.series('counted', { days: 2, version: '1.0.0' });
    expect(ofRelease).toMatchObject({ version: '1.0.0', from: '2026-11-27', to: '2026-11-28', total: 5 });
    // The next UTC day starts empty; the default is 90 days ending today.
    clock.at = new Date('2026-11-29T00:00:00.000Z');
    const later = await downloads.series('counted', {});
    expect(later.series).toHaveLength(90);
    expect(later.to).toBe('2026-11-29');
    expect(later.from).toBe('2026-09-01');
    expect(later.series.at(-1)).toEqual({ day: '2026-11-29', downloads: 0 });
    expect(later.total).toBe(7);
    await expect(downloads.series('nothing-here', {})).rejects.toMatchObject({ kind: 'not-found' });
    await expect(downloads.series('counted', { version: '9.9.9' })).rejects.toMatchObject({ kind: 'not-found' });
  });

  it(`keeps ${DOWNLOAD_DAYS_KEPT} days (today included), pruning once a UTC day at a write`, async () => {
    const fresh = new DownloadCounter(new ReleasesRepository(dataSource), new DownloadDaysRepository(dataSource), clock);
    clock.at = new Date('2026-11-28T10:00:00.000Z');
    const oldest = '2025-11-28'; // 365 days before 2026-11-28: the first day kept
    for (const day of ['2025-11-27', oldest]) {
      await sql(`INSERT INTO plugin_download_day (plugin_id, day, downloads) VALUES ($1, $2, 1)`, [pluginId, day]);
      await sql(`INSERT INTO release_download_day (release_id, day, downloads) VALUES ($1, $2, 1)`, [first, day]);
    }
    await fresh.flush();
    expect((await pluginDays(pluginId)).map((r: { day: string }) => r.day)).toEqual([oldest, '2026-11-27', '2026-11-28']);
    expect((await releaseDays(first)).map((r: { day: string }) => r.day)).toEqual([oldest, '2026-11-27', '2026-11-28']);

    // Once a day: a row gone stale later that day waits for the next day's first write.
    await sql(`INSERT INTO plugin_download_day (plugin_id, day, downloads) VALUES ($1, '2025-01-01', 1)`, [pluginId]);
    await fresh.flush();
    expect((await pluginDays(pluginId))[0].day).toBe('2025-01-01');
    clock.at = new Date('2026-11-29T00:00:01.000Z');
    await fresh.flush();
    expect((await pluginDays(pluginId)).map((r: { day: string }) => r.day)).toEqual(['2026-11-27', '2026-11-28']);
  });

  it('reads a plugin’s days by a range scan of the primary key, and prunes by the day index', async () => {
    const plan = await planOf(
      `SELECT day::text AS day, downloads FROM plugin_download_day WHERE plugin_id = $1 AND day BETWEEN $2::date AND $3::date ORDER BY day`,
      [pluginId, '2026-09-01', '2026-11-29'],
    );
    expect(plan).toMatch(/Index Scan using "?PK_|Index Only Scan using "?PK_/);
    expect(await planOf(`DELETE FROM plugin_download_day WHERE day < $1::date`, ['2025-11-28'])).toMatch(/idx_plugin_download_day_day/);
  });
});

describe('admin activity per day', () => {
  let activity: AdminActivityService;
  const audit = (action: string, at: string) =>
    sql(`INSERT INTO audit_entry (action, slug, created_at) VALUES ($1, 'counted', $2)`, [action, at]);

  beforeAll(async () => {
    activity = new AdminActivityService(new AuditRepository(dataSource.getRepository(AuditEntryEntity)), clock);
    await audit('plugin.publish', '2026-11-25T23:59:59.999Z'); // before the range
    await audit('plugin.publish', '2026-11-26T00:00:00.000Z');
    await audit('plugin.publish', '2026-11-27T23:59:59.999Z');
    await audit('plugin.publish', '2026-11-28T00:00:00.000Z');
    await audit('plugin.publish', '2026-11-28T09:30:00.000Z');
    await audit('plugin.publish', '2026-11-29T00:00:00.000Z'); // after today
    await audit('webhook.delivery_failed', '2026-11-28T01:00:00.000Z');
    await audit('plugin.manifest_asset_missing', '2026-11-28T01:00:00.000Z'); // counted with the failed delivery, not twice
    await audit('plugin.publish_invalid', '2026-11-26T12:00:00.000Z');
    await audit('plugin.publish_asset_fail', '2026-11-27T12:00:00.000Z');
    await audit('plugin.publish_conflict', '2026-11-27T13:00:00.000Z');
    await audit('plugin.publish_denied', '2026-11-28T14:00:00.000Z');
    await audit('plugin.yank', '2026-11-28T14:00:00.000Z'); // no chart counts it
  });

  it('groups publishes, failed deliveries and ingest errors by UTC day, the last N days ending today', async () => {
    clock.at = new Date('2026-11-28T23:00:00.000Z');
    expect(await activity.activity({ days: 3 })).toEqual({
      from: '2026-11-26',
      to: '2026-11-28',
      publishes: {
        total: 4,
        series: [
          { day: '2026-11-26', count: 1 },
          { day: '2026-11-27', count: 1 },
          { day: '2026-11-28', count: 2 },
        ],
      },
      failedDeliveries: {
        total: 1,
        series: [
          { day: '2026-11-26', count: 0 },
          { day: '2026-11-27', count: 0 },
          { day: '2026-11-28', count: 1 },
        ],
      },
      ingestErrors: {
        total: 4,
        series: [
          { day: '2026-11-26', count: 1 },
          { day: '2026-11-27', count: 2 },
          { day: '2026-11-28', count: 1 },
        ],
      },
    });
    const month = await activity.activity({});
    expect(month.publishes.series).toHaveLength(30);
    expect(month.from).toBe('2026-10-30');
    expect(month.publishes.total).toBe(5);
  });

  it('reads the audit log by its (action, created_at) index', async () => {
    const plan = await planOf(
      `SELECT action, (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS count FROM audit_entry WHERE action = ANY($1::varchar[]) AND created_at >= $2 AND created_at < $3 GROUP BY 1, 2`,
      [['plugin.publish'], new Date('2026-11-26T00:00:00Z'), new Date('2026-11-29T00:00:00Z')],
    );
    expect(plan).toMatch(/idx_audit_entry_action_created_at/);
  });
});
