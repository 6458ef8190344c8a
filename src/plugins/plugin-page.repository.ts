import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import type { PluginEntity } from './entities/plugin.entity';
import { epochMsSql, type PluginJson, pluginJsonSql, pluginOfRow, pluginRowOfJson } from './plugin-row';
import type { PublishedBy, ReleaseEntity, StoredAsset } from './entities/release.entity';

/** Everything the plugin page shows, read in one round trip. */
export interface PluginPageRow {
  plugin: PluginEntity;
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
const PAGE_SQL = `SELECT json_build_object('plugin', ${pluginJsonSql('p')},
    'shownId', s.id, 'shownManifest', s.manifest,
    'releases', (SELECT coalesce(json_agg(json_build_array(r.id, r.version, r.prerelease, ${epochMsSql('r.yanked_at')}, r.yank_reason, r.published_by,
        r.source, r.min_runtime_version, r.downloads, ${epochMsSql('r.created_at')}) ORDER BY r.version_sort DESC), '[]'::json)
      FROM release r WHERE r.plugin_id = p.id),
    'owners', (SELECT coalesce(json_agg(json_build_object('login', u.login, 'instance', u.instance) ORDER BY o.created_at, u.login), '[]'::json)
      FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id),
    'readmeLocales', (SELECT coalesce(json_agg(rr.locale ORDER BY rr.position), '[]'::json) FROM release_readme rr WHERE rr.release_id = s.id),
    'firstReadmeHtml', (SELECT rr.html FROM release_readme rr WHERE rr.release_id = s.id ORDER BY rr.position LIMIT 1)) AS page
  FROM plugin p LEFT JOIN LATERAL (${SHOWN}) s ON true
  WHERE p.slug = $1`;

const LATEST_SQL = `SELECT (SELECT coalesce(json_agg(json_build_object('version', r.version, 'prerelease', r.prerelease, 'yanked', r.yanked_at IS NOT NULL,
    'minRuntimeVersion', r.min_runtime_version, 'assets', r.assets) ORDER BY r.version_sort DESC), '[]'::json)
    FROM release r WHERE r.plugin_id = p.id) AS releases, p.slug
  FROM plugin p WHERE p.slug = $1`;

/** A release summary as PAGE_SQL lists it: [id, version, prerelease, yankedAt, yankReason, publishedBy, source, minRuntimeVersion, downloads, createdAt]. */
type ReleaseSummaryTuple = [string, string, boolean, number | null, string | null, PublishedBy | null, ReleaseEntity['source'], string | null, number, number];

interface PageJson {
  plugin: PluginJson;
  shownId: string | null;
  shownManifest: Record<string, unknown> | null;
  releases: ReleaseSummaryTuple[];
  owners: { login: string; instance: string }[];
  readmeLocales: string[];
  firstReadmeHtml: string | null;
}

function releaseOfTuple([id, version, prerelease, yankedAt, yankReason, publishedBy, source, minRuntimeVersion, downloads, createdAt]: ReleaseSummaryTuple): ReleaseEntity {
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
    if (!row) return null;
    const { page } = row;
    return {
      plugin: pluginOfRow(pluginRowOfJson(page.plugin)),
      releases: page.releases.map(releaseOfTuple),
      owners: page.owners,
      shownManifest: page.shownManifest,
      shownId: page.shownId,
      readmeLocales: page.readmeLocales,
      firstReadmeHtml: page.firstReadmeHtml,
    };
  }

  /** Every release of the plugin, SemVer-highest first, as `latest` weighs them; null when there is no such plugin. */
  async latestCandidates(slug: string, manager: EntityManager = this.dataSource.manager): Promise<{ slug: string; releases: LatestCandidateRow[] } | null> {
    const [row] = await preparedQuery<{ slug: string; releases: LatestCandidateRow[] }>(manager, 'plugin_latest', LATEST_SQL, [slug]);
    return row ?? null;
  }
}
