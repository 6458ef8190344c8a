import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../persistence/prepared-query';
import type { PluginEntity } from './entities/plugin.entity';
import { epochMsSql, type PluginJson, pluginJsonSql, pluginOfRow, pluginRowOfJson } from './plugin-row';
import type { PublishedBy, ReleaseEntity, StoredAsset } from './entities/release.entity';

/** Everything the plugin page shows, read in one round trip. */
export interface PluginPageRow {
  plugin: PluginEntity;
  /** The plugin's page_stamp in the snapshot this was read in. */
  stamp: string;
  /** Summary columns only: enough for toReleaseSummaryDto, not a whole release. */
  releases: ReleaseEntity[];
  owners: { login: string; instance: string }[];
  /** The shown release's manifest (what the page describes), null without releases. */
  shownManifest: Record<string, unknown> | null;
  shownId: string | null;
  /** The shown release's README locales in their stored order, and the first one's HTML. */
  readmeLocales: string[];
  firstReadmeHtml: string | null;
}

/** A release as `latest` weighs it. */
export interface LatestCandidateRow {
  version: string;
  prerelease: boolean;
  yanked: boolean;
  minRuntimeVersion: string | null;
  assets: StoredAsset[];
}

/**
 * The release the catalogue shows (ReleasesRepository.findShown, in SQL): the highest live stable
 * release, else the highest live prerelease, else the same two among yanked ones.
 */
const SHOWN = `SELECT r.id, r.manifest FROM release r WHERE r.plugin_id = p.id
  ORDER BY r.yanked_at IS NOT NULL, r.prerelease, r.version_sort DESC LIMIT 1`;

// Everything in one JSON value: the driver parses one text with JSON.parse rather than describing,
// typing and parsing some thirty columns; releases come as arrays (no key repeated ten times).
// `stamp` is the plugin's page_stamp in the same snapshot: what a page stored from this read is
// current for.
const pageSql = (where: string, columns = '') => `SELECT json_build_object('plugin', ${pluginJsonSql('p')}, 'stamp', p.page_stamp::text,
    'shownId', s.id, 'shownManifest', s.manifest,
    'releases', (SELECT coalesce(json_agg(json_build_array(r.id, r.version, r.prerelease, ${epochMsSql('r.yanked_at')}, r.yank_reason, r.published_by,
        r.source, r.min_runtime_version, r.downloads, ${epochMsSql('r.created_at')}) ORDER BY r.version_sort DESC), '[]'::json)
      FROM release r WHERE r.plugin_id = p.id),
    'owners', (SELECT coalesce(json_agg(json_build_object('login', u.login, 'instance', u.instance) ORDER BY o.created_at, u.login), '[]'::json)
      FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id),
    'readmeLocales', (SELECT coalesce(json_agg(rr.locale ORDER BY rr.position), '[]'::json) FROM release_readme rr WHERE rr.release_id = s.id),
    'firstReadmeHtml', (SELECT rr.html FROM release_readme rr WHERE rr.release_id = s.id ORDER BY rr.position LIMIT 1)) AS page${columns}
  FROM plugin p LEFT JOIN LATERAL (${SHOWN}) s ON true
  WHERE ${where}`;

/** What `latest` weighs: every release, SemVer-highest first, its version, flags and assets. */
const CANDIDATES = `(SELECT coalesce(json_agg(json_build_object('version', r.version, 'prerelease', r.prerelease, 'yanked', r.yanked_at IS NOT NULL,
    'minRuntimeVersion', r.min_runtime_version, 'assets', r.assets) ORDER BY r.version_sort DESC), '[]'::json)
    FROM release r WHERE r.plugin_id = p.id)`;

/** The page read by a request; part of what PAGE_FORMAT hashes, as LATEST_SQL. */
export const PAGE_SQL = pageSql('p.slug = $1');
// What PluginPageBuilder stores: the pages, and `latest`'s candidates as text, from one snapshot.
const PAGES_BY_ID_SQL = pageSql('p.id = ANY($1::uuid[])', `, ${CANDIDATES}::text AS latest`);

// The stored page, only while it is current: its stamp is the plugin's and the running code built it.
const STORED_PAGE_SQL = `SELECT pp.body FROM plugin p JOIN plugin_page pp ON pp.plugin_id = p.id AND pp.stamp = p.page_stamp AND pp.format = $2
  WHERE p.slug = $1`;

// Marks are taken oldest first; one a builder has taken (locked) is skipped by the others, and a
// writer marking it again waits for that builder's transaction and marks it anew.
const TAKE_STALE_SQL = `DELETE FROM plugin_page_stale WHERE plugin_id IN
  (SELECT plugin_id FROM plugin_page_stale ORDER BY marked_at LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING plugin_id`;

// A page built from an older snapshot never replaces a newer one; one built by other code does.
const STORE_SQL = `INSERT INTO plugin_page (plugin_id, stamp, format, body, latest)
  SELECT u.plugin_id, u.stamp, $3, u.body, u.latest::json FROM unnest($1::uuid[], $2::bigint[], $4::text[], $5::text[]) AS u(plugin_id, stamp, body, latest)
  ON CONFLICT (plugin_id) DO UPDATE SET stamp = excluded.stamp, format = excluded.format, body = excluded.body, latest = excluded.latest
  WHERE plugin_page.stamp < excluded.stamp OR plugin_page.format <> excluded.format`;

// `latest`'s candidates: stored while current (one row instead of every release's), else read.
export const LATEST_SQL = `SELECT p.slug, CASE WHEN pp.stamp = p.page_stamp AND pp.format = $2 THEN pp.latest ELSE ${CANDIDATES} END AS releases
  FROM plugin p LEFT JOIN plugin_page pp ON pp.plugin_id = p.id WHERE p.slug = $1`;

/** A release summary as PAGE_SQL lists it: [id, version, prerelease, yankedAt, yankReason, publishedBy, source, minRuntimeVersion, downloads, createdAt]. */
type ReleaseSummaryTuple = [string, string, boolean, number | null, string | null, PublishedBy | null, ReleaseEntity['source'], string | null, number, number];

interface PageJson {
  plugin: PluginJson;
  stamp: string;
  shownId: string | null;
  shownManifest: Record<string, unknown> | null;
  releases: ReleaseSummaryTuple[];
  owners: { login: string; instance: string }[];
  readmeLocales: string[];
  firstReadmeHtml: string | null;
}

/** Part of what PAGE_FORMAT hashes, as pageRowOf. */
export function releaseOfTuple([id, version, prerelease, yankedAt, yankReason, publishedBy, source, minRuntimeVersion, downloads, createdAt]: ReleaseSummaryTuple): ReleaseEntity {
  return {
    id,
    version,
    prerelease,
    yankedAt: yankedAt === null ? null : new Date(yankedAt),
    yankReason,
    publishedBy,
    source,
    minRuntimeVersion,
    downloads: String(downloads),
    createdAt: new Date(createdAt),
  } as unknown as ReleaseEntity;
}

/**
 * The plugin page and `latest`, each one prepared statement: the catalogue is read a thousand
 * times for every write, so its reads take the columns they show and nothing else.
 */
export class PluginPageRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(slug: string, manager: EntityManager = this.dataSource.manager): Promise<PluginPageRow | null> {
    const [row] = await preparedQuery<{ page: PageJson }>(manager, 'plugin_page', PAGE_SQL, [slug]);
    return row ? pageRowOf(row.page) : null;
  }

  /**
   * Every release of the plugin, SemVer-highest first, as `latest` weighs them (stored with the
   * page when `format` built it and it is current); null when there is no such plugin.
   */
  async latestCandidates(slug: string, format: string, manager: EntityManager = this.dataSource.manager): Promise<{ slug: string; releases: LatestCandidateRow[] } | null> {
    const [row] = await preparedQuery<{ slug: string; releases: LatestCandidateRow[] }>(manager, 'plugin_latest', LATEST_SQL, [slug, format]);
    return row ?? null;
  }

  /** The stored detail of the plugin with this slug as JSON text, or null when there is none current for `format`. */
  async storedPage(slug: string, format: string, manager: EntityManager = this.dataSource.manager): Promise<string | null> {
    const [row] = await preparedQuery<{ body: string }>(manager, 'plugin_stored_page', STORED_PAGE_SQL, [slug, format]);
    return row?.body ?? null;
  }

  /**
   * Takes up to `limit` plugins marked stale and stores what `render` makes of their pages, in one
   * transaction: a failure leaves them marked. The number of marks taken (0: none were left).
   */
  async rebuildStale(limit: number, format: string, render: (page: PluginPageRow, manager: EntityManager) => Promise<string>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      // A DELETE … RETURNING comes back through TypeORM as [rows, count].
      const [taken] = (await manager.query(TAKE_STALE_SQL, [limit])) as [{ plugin_id: string }[], number];
      if (taken.length === 0) return 0;
      const ids = taken.map((row) => row.plugin_id);
      // Those that still exist; a deleted plugin's mark is simply taken.
      const rows = await preparedQuery<{ page: PageJson; latest: string }>(manager, 'plugin_pages_by_id', PAGES_BY_ID_SQL, [ids]);
      const pages = rows.map((row) => pageRowOf(row.page));
      const bodies: string[] = [];
      for (const page of pages) bodies.push(await render(page, manager));
      if (pages.length) {
        const stored = [pages.map((page) => page.plugin.id), pages.map((page) => page.stamp), format, bodies, rows.map((row) => row.latest)];
        await manager.query(STORE_SQL, stored);
      }
      return taken.length;
    });
  }

  /** Marks every stored page that other code built (a deploy changed the answer's shape). */
  async markOtherFormatsStale(format: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO plugin_page_stale (plugin_id) SELECT plugin_id FROM plugin_page WHERE format <> $1 ON CONFLICT (plugin_id) DO NOTHING',
      [format],
    );
  }

  /** Plugins waiting for their page to be built. */
  async staleCount(): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM plugin_page_stale');
    return row.n;
  }
}

export function pageRowOf(page: PageJson): PluginPageRow {
  return {
    plugin: pluginOfRow(pluginRowOfJson(page.plugin)),
    stamp: page.stamp,
    releases: page.releases.map(releaseOfTuple),
    owners: page.owners,
    shownManifest: page.shownManifest,
    shownId: page.shownId,
    readmeLocales: page.readmeLocales,
    firstReadmeHtml: page.firstReadmeHtml,
  };
}
