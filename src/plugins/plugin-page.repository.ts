import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import type { PluginEntity } from './entities/plugin.entity';
import { PLUGIN_ROW_COLUMNS, pluginOfRow, type PluginRow } from './plugin-row';
import type { PublishedBy, ReleaseEntity, StoredAsset } from './entities/release.entity';

/** A release as the plugin page lists it: the summary columns only (no JWS, no manifests). */
export interface ReleaseSummaryRow {
  id: string;
  version: string;
  prerelease: boolean;
  yankedAt: string | null;
  yankReason: string | null;
  publishedBy: PublishedBy | null;
  source: 'push' | 'webhook' | 'reconcile';
  minRuntimeVersion: string | null;
  downloads: number | string;
  createdAt: string;
}

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

const PAGE_SQL = `SELECT ${PLUGIN_ROW_COLUMNS},
    s.id AS shown_id, s.manifest AS shown_manifest,
    (SELECT coalesce(json_agg(json_build_object('id', r.id, 'version', r.version, 'prerelease', r.prerelease, 'yankedAt', r.yanked_at,
        'yankReason', r.yank_reason, 'publishedBy', r.published_by, 'source', r.source, 'minRuntimeVersion', r.min_runtime_version,
        'downloads', r.downloads, 'createdAt', r.created_at) ORDER BY r.version_sort DESC), '[]'::json)
      FROM release r WHERE r.plugin_id = p.id) AS releases,
    (SELECT coalesce(json_agg(json_build_object('login', u.login, 'instance', u.instance) ORDER BY o.created_at, u.login), '[]'::json)
      FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id) AS owners,
    (SELECT coalesce(array_agg(rr.locale ORDER BY rr.position), '{}') FROM release_readme rr WHERE rr.release_id = s.id) AS readme_locales,
    (SELECT rr.html FROM release_readme rr WHERE rr.release_id = s.id ORDER BY rr.position LIMIT 1) AS first_readme_html
  FROM plugin p LEFT JOIN LATERAL (${SHOWN}) s ON true
  WHERE p.slug = $1`;

const LATEST_SQL = `SELECT (SELECT coalesce(json_agg(json_build_object('version', r.version, 'prerelease', r.prerelease, 'yanked', r.yanked_at IS NOT NULL,
    'minRuntimeVersion', r.min_runtime_version, 'assets', r.assets) ORDER BY r.version_sort DESC), '[]'::json)
    FROM release r WHERE r.plugin_id = p.id) AS releases, p.slug
  FROM plugin p WHERE p.slug = $1`;

interface PageSqlRow extends PluginRow {
  shown_id: string | null;
  shown_manifest: Record<string, unknown> | null;
  releases: ReleaseSummaryRow[];
  owners: { login: string; instance: string }[];
  readme_locales: string[];
  first_readme_html: string | null;
}

/**
 * The plugin page and `latest`, each one prepared statement: the catalogue is read a thousand
 * times for every write, so its reads take the columns they show and nothing else.
 */
export class PluginPageRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(slug: string, manager: EntityManager = this.dataSource.manager): Promise<PluginPageRow | null> {
    const [row] = await preparedQuery<PageSqlRow>(manager, 'plugin_page', PAGE_SQL, [slug]);
    if (!row) return null;
    const plugin = pluginOfRow(row);
    return {
      plugin,
      releases: row.releases.map(
        (r) => ({ ...r, yankedAt: r.yankedAt === null ? null : new Date(r.yankedAt), createdAt: new Date(r.createdAt), downloads: String(r.downloads) }) as unknown as ReleaseEntity,
      ),
      owners: row.owners,
      shownManifest: row.shown_manifest,
      shownId: row.shown_id,
      readmeLocales: row.readme_locales,
      firstReadmeHtml: row.first_readme_html,
    };
  }

  /** Every release of the plugin, SemVer-highest first, as `latest` weighs them; null when there is no such plugin. */
  async latestCandidates(slug: string, manager: EntityManager = this.dataSource.manager): Promise<{ slug: string; releases: LatestCandidateRow[] } | null> {
    const [row] = await preparedQuery<{ slug: string; releases: LatestCandidateRow[] }>(manager, 'plugin_latest', LATEST_SQL, [slug]);
    return row ?? null;
  }
}
