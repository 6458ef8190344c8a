import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../../persistence/prepared-query';
import type { PluginEntity } from './entities/plugin.entity';
import { epochMsSql, type PluginJson, pluginJsonSql, pluginOfRow, pluginRowOfJson } from './plugin-row';
import type { PublishedBy, ReleaseEntity, StoredAsset, StoredReleaseImages } from './entities/release.entity';

/** Everything the plugin page shows, read in one round trip. */
export interface PluginPageRow {
  plugin: PluginEntity;
  /** Summary columns only: enough for toReleaseSummaryDto, not a whole release. */
  releases: ReleaseEntity[];
  owners: { login: string; instance: string }[];
  /** The shown release's manifest (what the page describes), null without releases. */
  shownManifest: Record<string, unknown> | null;
  shownId: string | null;
  /** The shown release's served icon and screenshots (null before pictures were fetched, or without releases). */
  shownImages: StoredReleaseImages | null;
  /** The shown release's README locales in their stored order, and the first one's HTML. */
  readmeLocales: string[];
  firstReadmeHtml: string | null;
}

/** What `latest` reads of a plugin: the releases it may choose from (CANDIDATES), its deprecation (since: epoch ms) and its log position. */
export interface LatestCandidates {
  slug: string;
  releases: LatestCandidateRow[];
  deprecation: { since: number; replacement: string | null } | null;
  /** `plugin.log_size`: the tree size its freshness statements name. */
  logSize: number;
}

/** A release as `latest` weighs it. */
export interface LatestCandidateRow {
  version: string;
  prerelease: boolean;
  yanked: boolean;
  minRuntimeVersion: string | null;
  assets: Pick<StoredAsset, 'name' | 'os' | 'arch' | 'size' | 'hashed' | 'sha256'>[];
}

/**
 * The release the catalogue shows (ReleasesRepository.findShown, in SQL): the highest live stable
 * release, else the highest live prerelease, else the same two among yanked ones.
 */
const SHOWN = `SELECT r.id, r.manifest, r.images FROM release r WHERE r.plugin_id = p.id
  ORDER BY r.yanked_at IS NOT NULL, r.prerelease, r.version_sort DESC LIMIT 1`;

// Everything in one JSON value: the driver parses one text with JSON.parse rather than describing,
// typing and parsing some thirty columns; releases come as arrays (no key repeated ten times).
const pageSql = (where: string, columns = '') => `SELECT json_build_object('plugin', ${pluginJsonSql('p')},
    'shownId', s.id, 'shownManifest', s.manifest, 'shownImages', s.images,
    'releases', (SELECT coalesce(json_agg(json_build_array(r.id, r.version, r.prerelease, ${epochMsSql('r.yanked_at')}, r.yank_reason, r.published_by,
        r.source, r.min_runtime_version, r.downloads, ${epochMsSql('r.created_at')}, r.log_index) ORDER BY r.version_sort DESC), '[]'::json)
      FROM release r WHERE r.plugin_id = p.id),
    'owners', (SELECT coalesce(json_agg(json_build_object('login', u.login, 'instance', u.instance) ORDER BY o.created_at, u.login), '[]'::json)
      FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id),
    'readmeLocales', (SELECT coalesce(json_agg(rr.locale ORDER BY rr.position), '[]'::json) FROM release_readme rr WHERE rr.release_id = s.id),
    'firstReadmeHtml', (SELECT rr.html FROM release_readme rr WHERE rr.release_id = s.id ORDER BY rr.position LIMIT 1)) AS page${columns}
  FROM plugin p LEFT JOIN LATERAL (${SHOWN}) s ON true
  WHERE ${where}`;

/**
 * What `latest` weighs: the releases SemVer-highest first, down to the first one every query
 * accepts (live, stable, no minimum runtime). chooseLatestRelease stops there whatever it is asked,
 * so the older ones were read, stored and parsed for nothing: a plugin with ten releases sent
 * 11 KB a `latest` answer. Each asset with the fields the choice and the answer use (not its
 * source URL or content type).
 */
const CANDIDATES = `(SELECT coalesce(json_agg(json_build_object('version', c.version, 'prerelease', c.prerelease, 'yanked', c.yanked,
    'minRuntimeVersion', c.min_runtime_version,
    'assets', (SELECT coalesce(jsonb_agg(jsonb_build_object('name', a->'name', 'os', a->'os', 'arch', a->'arch', 'size', a->'size',
        'hashed', a->'hashed', 'sha256', a->'sha256') ORDER BY e.position), '[]'::jsonb)
      FROM jsonb_array_elements(c.assets) WITH ORDINALITY AS e(a, position))) ORDER BY c.version_sort DESC), '[]'::json)
    FROM (SELECT r.version, r.prerelease, r.yanked_at IS NOT NULL AS yanked, r.min_runtime_version, r.version_sort, r.assets,
        count(*) FILTER (WHERE r.yanked_at IS NULL AND NOT r.prerelease AND r.min_runtime_version IS NULL)
          OVER (ORDER BY r.version_sort DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS accepted_above
      FROM release r WHERE r.plugin_id = p.id) c
    WHERE c.accepted_above = 0)`;

/** The page read by a request; part of what PAGE_FORMAT hashes, as LATEST_SQL. */
export const PAGE_SQL = pageSql('p.slug = $1');
// What PluginPageBuilder stores: the pages, `latest`'s candidates as text, and the snapshot they
// were read in (the writes they hold are exactly those visible in it).
const PAGES_BY_ID_SQL = pageSql('p.id = ANY($1::uuid[])', `, ${CANDIDATES}::text AS latest, pg_current_snapshot()::text AS snapshot`);

/** A logged write `c` that the stored page `pp` does not hold. */
const UNSEEN = `NOT pg_visible_in_snapshot(c.txid::text::xid8, pp.read_snapshot::pg_snapshot)`;

/** A stored page `pp` answers while the running code built it ($2) and it holds every logged write to its plugin. */
const CURRENT = `pp.format = $2 AND NOT EXISTS (SELECT 1 FROM plugin_page_change c WHERE c.plugin_id = pp.plugin_id AND ${UNSEEN})`;

const STORED_PAGE_SQL = `SELECT pp.body FROM plugin p JOIN plugin_page pp ON pp.plugin_id = p.id WHERE p.slug = $1 AND ${CURRENT}`;

// `latest`'s candidates: stored while current (one row instead of every release's), else read.
// The deprecation comes from the plugin row itself, always current.
export const LATEST_SQL = `SELECT p.slug, CASE WHEN ${CURRENT} THEN pp.latest ELSE ${CANDIDATES} END AS releases,
    ${epochMsSql('p.deprecated_at')} AS deprecated_at, p.deprecated_replacement, p.log_size
  FROM plugin p LEFT JOIN plugin_page pp ON pp.plugin_id = p.id WHERE p.slug = $1`;

/** One builder at a time, across instances: two storing the same pages in another order could deadlock. */
const BUILDER_LOCK_KEY = 7_244_151_021;

// Plugins with a committed write their stored page (if any) does not hold: a page read after
// this statement holds it. Each logged write looks its page up by key, in a subquery the planner
// cannot turn into a join: written as a join, on a log whose statistics were stale (autovacuum off
// or behind, after a bulk build emptied the log), it was planned as a parallel hash join over every
// stored page, 375 ms of two processes every second with nothing to build (100,000 pages).
const PENDING_SQL = `SELECT DISTINCT c.plugin_id FROM plugin_page_change c
  WHERE (SELECT pp.format = $1 AND NOT ${UNSEEN} FROM plugin_page pp WHERE pp.plugin_id = c.plugin_id) IS NOT TRUE
  LIMIT $2`;

const STORE_SQL = `INSERT INTO plugin_page (plugin_id, read_snapshot, format, body, latest)
  SELECT u.plugin_id, $2, $3, u.body, u.latest::json FROM unnest($1::uuid[], $4::text[], $5::text[]) AS u(plugin_id, body, latest)
  ON CONFLICT (plugin_id) DO UPDATE SET read_snapshot = excluded.read_snapshot, format = excluded.format, body = excluded.body, latest = excluded.latest`;

// What the pages just stored hold (and what a deleted plugin left) is no longer needed.
const ABSORBED_SQL = `DELETE FROM plugin_page_change WHERE plugin_id = ANY($1::uuid[]) AND pg_visible_in_snapshot(txid::text::xid8, $2::pg_snapshot)`;

/** A release summary as PAGE_SQL lists it: [id, version, prerelease, yankedAt, yankReason, publishedBy, source, minRuntimeVersion, downloads, createdAt, logIndex]. */
type ReleaseSummaryTuple = [
  string,
  string,
  boolean,
  number | null,
  string | null,
  PublishedBy | null,
  ReleaseEntity['source'],
  string | null,
  number,
  number,
  number | null,
];

interface PageJson {
  plugin: PluginJson;
  shownId: string | null;
  shownManifest: Record<string, unknown> | null;
  shownImages: StoredReleaseImages | null;
  releases: ReleaseSummaryTuple[];
  owners: { login: string; instance: string }[];
  readmeLocales: string[];
  firstReadmeHtml: string | null;
}

/** Part of what PAGE_FORMAT hashes, as pageRowOf. */
export function releaseOfTuple([
  id,
  version,
  prerelease,
  yankedAt,
  yankReason,
  publishedBy,
  source,
  minRuntimeVersion,
  downloads,
  createdAt,
  logIndex,
]: ReleaseSummaryTuple): ReleaseEntity {
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
    logIndex: logIndex === null || logIndex === undefined ? null : String(logIndex),
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
  async latestCandidates(slug: string, format: string, manager: EntityManager = this.dataSource.manager): Promise<LatestCandidates | null> {
    const [row] = await preparedQuery<{
      slug: string;
      releases: LatestCandidateRow[];
      deprecated_at: string | number | null;
      deprecated_replacement: string | null;
      log_size: string;
    }>(manager, 'plugin_latest', LATEST_SQL, [slug, format]);
    if (!row) return null;
    const deprecation = row.deprecated_at === null ? null : { since: Number(row.deprecated_at), replacement: row.deprecated_replacement };
    return { slug: row.slug, releases: row.releases, deprecation, logSize: Number(row.log_size) };
  }

  /** The stored detail of the plugin with this slug as JSON text, or null when there is none current for `format`. */
  async storedPage(slug: string, format: string, manager: EntityManager = this.dataSource.manager): Promise<string | null> {
    const [row] = await preparedQuery<{ body: string }>(manager, 'plugin_stored_page', STORED_PAGE_SQL, [slug, format]);
    return row?.body ?? null;
  }

  /**
   * Builds up to `limit` pages whose plugins were written since they were stored (or never were),
   * storing what `render` makes of each, in one transaction. How many plugins it took (0 when none
   * waited, or another instance is building) and how many logged writes their pages absorbed.
   */
  async buildPending(
    limit: number,
    format: string,
    render: (page: PluginPageRow, manager: EntityManager) => Promise<string>,
  ): Promise<{ plugins: number; absorbed: number }> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [BUILDER_LOCK_KEY]);
      if (!locked) return { plugins: 0, absorbed: 0 };
      const ids = (await manager.query<{ plugin_id: string }[]>(PENDING_SQL, [format, limit])).map((row) => row.plugin_id);
      if (ids.length === 0) return { plugins: 0, absorbed: 0 };
      const rows = await preparedQuery<{ page: PageJson; latest: string; snapshot: string }>(
        manager,
        'plugin_pages_by_id',
        PAGES_BY_ID_SQL,
        [ids],
      );
      // Plugins deleted since leave no row; their writes are absorbed as of a snapshot taken now.
      const snapshot =
        rows[0]?.snapshot ?? (await manager.query<{ snapshot: string }[]>('SELECT pg_current_snapshot()::text AS snapshot'))[0].snapshot;
      const pages = rows.map((row) => pageRowOf(row.page));
      const bodies: string[] = [];
      for (const page of pages) bodies.push(await render(page, manager));
      if (pages.length) {
        await manager.query(STORE_SQL, [pages.map((page) => page.plugin.id), snapshot, format, bodies, rows.map((row) => row.latest)]);
      }
      const [, absorbed] = await manager.query<[unknown, number]>(ABSORBED_SQL, [ids, snapshot]);
      return { plugins: ids.length, absorbed };
    });
  }

  /** Logs every plugin whose stored page other code built (a deploy changed the answer's shape), so it is built again. */
  async markOtherFormats(format: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin_id, pg_current_xact_id()::text::bigint FROM plugin_page WHERE format <> $1',
      [format],
    );
  }

  /** Where no page is stored: forgets every committed logged write (and any page stored before); how many it forgot. */
  async clearLog(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [, forgotten] = await manager.query<[unknown, number]>(
        'DELETE FROM plugin_page_change WHERE pg_visible_in_snapshot(txid::text::xid8, pg_current_snapshot())',
      );
      await manager.query('DELETE FROM plugin_page');
      return forgotten;
    });
  }

  /**
   * Reclaims the log's deleted rows and refreshes its statistics. Every write logs a row that a
   * pass deletes soon after; where autovacuum is off (or behind), the dead rows stayed, and every
   * pass and every stale-count read scanned them: 300,000 after a bulk build, 61 ms a scan.
   */
  async compactLog(): Promise<void> {
    await this.dataSource.query('VACUUM (ANALYZE) plugin_page_change');
  }

  /** Plugins with a logged write their stored page does not hold yet. */
  async pendingCount(): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>('SELECT count(DISTINCT plugin_id)::int AS n FROM plugin_page_change');
    return row.n;
  }
}

export function pageRowOf(page: PageJson): PluginPageRow {
  return {
    plugin: pluginOfRow(pluginRowOfJson(page.plugin)),
    releases: page.releases.map(releaseOfTuple),
    owners: page.owners,
    shownManifest: page.shownManifest,
    shownId: page.shownId,
    shownImages: page.shownImages,
    readmeLocales: page.readmeLocales,
    firstReadmeHtml: page.firstReadmeHtml,
  };
}
