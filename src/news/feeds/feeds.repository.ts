import type { DataSource, EntityManager } from 'typeorm';

/** How many entries a feed carries: the newest releases only, like other registries' feeds. */
export const FEED_ENTRIES = 50;

/** Which releases a feed follows. */
export type FeedFilter =
  { by: 'all' } | { by: 'kind'; kind: string } | { by: 'plugin'; pluginId: string } | { by: 'owners'; userIds: string[] };

/** One release as a feed shows it: the plugin's current public fields and its owners' logins. */
export interface FeedReleaseRow {
  slug: string;
  name: string;
  description: string | null;
  kind: string | null;
  version: string;
  prerelease: boolean;
  createdAt: Date;
  /** When the entry last changed: the release's time, or a later change of its plugin (a new name, description or kind; a yank or unyank of one of its releases). */
  updatedAt: Date;
  owners: string[];
}

/** The plugin a plugin feed follows, with what the feed's head shows of it. */
export interface FeedPluginRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
}

interface RawRow {
  slug: string;
  name: string;
  description: string | null;
  kind: string | null;
  version: string;
  prerelease: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  owners: string[] | string;
}

/** Which releases a filter keeps, on `release r` joined with `plugin p`. */
const FILTERS: Record<FeedFilter['by'], string> = {
  all: '',
  kind: 'AND p.kind = $1',
  plugin: 'AND r.plugin_id = $1',
  owners: 'AND r.plugin_id IN (SELECT o.plugin_id FROM plugin_owner o WHERE o.user_id = ANY($1::uuid[]))',
};

/**
 * Where a feed's releases come from, as `r` (live releases) and `p` (their plugin). An owner's
 * plugins are walked one by one, each down `idx_release_plugin_feed` for its newest 50, and the
 * pieces merged: a filter on the whole-catalogue walk would read every newer release of anyone
 * else before reaching an owner whose releases are all old.
 */
function feedSource(filter: FeedFilter): string {
  if (filter.by === 'owners') {
    return `(SELECT r2.* FROM (SELECT DISTINCT o.plugin_id FROM plugin_owner o WHERE o.user_id = ANY($1::uuid[])) op
        CROSS JOIN LATERAL (SELECT r1.id, r1.plugin_id, r1.version, r1.prerelease, r1.created_at FROM release r1
                             WHERE r1.plugin_id = op.plugin_id AND r1.yanked_at IS NULL
                             ORDER BY r1.created_at DESC, r1.id DESC LIMIT ${FEED_ENTRIES}) r2
        ORDER BY r2.created_at DESC, r2.id DESC LIMIT ${FEED_ENTRIES}) r
      JOIN plugin p ON p.id = r.plugin_id`;
  }
  return `release r JOIN plugin p ON p.id = r.plugin_id WHERE r.yanked_at IS NULL ${FILTERS[filter.by]}`;
}

function filterParams(filter: FeedFilter): unknown[] {
  switch (filter.by) {
    case 'all':
      return [];
    case 'kind':
      return [filter.kind];
    case 'plugin':
      return [filter.pluginId];
    case 'owners':
      return [filter.userIds];
  }
}

/**
 * The feeds' reads: one query for a feed's entries (the newest live releases, walked down the
 * partial index `idx_release_feed` or, for one plugin, `idx_release_plugin_feed`; owners gathered
 * in the same statement, so no query per entry), and the public owner a login names.
 */
export class FeedsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The newest releases that are not yanked, newest first; a deleted plugin's releases are gone with it. */
  async newestReleases(filter: FeedFilter, manager?: EntityManager): Promise<FeedReleaseRow[]> {
    const rows: RawRow[] = await (manager ?? this.dataSource.manager).query(
      `SELECT p.slug, p.name, p.description, p.kind, r.version, r.prerelease, r.created_at,
              greatest(r.created_at, p.updated_at) AS updated_at,
              (SELECT coalesce(json_agg(u.login ORDER BY o.created_at, u.login), '[]'::json)
                 FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id) AS owners
         FROM ${feedSource(filter)}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${FEED_ENTRIES}`,
      filterParams(filter),
    );
    return rows.map((row) => ({
      slug: row.slug,
      name: row.name,
      description: row.description,
      kind: row.kind,
      version: row.version,
      prerelease: row.prerelease,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      owners: typeof row.owners === 'string' ? (JSON.parse(row.owners) as string[]) : row.owners,
    }));
  }

  /**
   * When a release the feed follows was last yanked (null: never): taking an entry out changes
   * the feed, so its `updated` must not fall back to an older entry's time. Served by two partial
   * indexes holding yanked releases only (a small set): `idx_release_yanked` (`yanked_at`) for the
   * catalogue and a kind, `idx_release_plugin_yanked` (`plugin_id, yanked_at`) for a plugin or an owner's.
   */
  async newestYank(filter: FeedFilter, manager?: EntityManager): Promise<Date | null> {
    // A kind's: walked newest yank first until one of its plugins' (a rare kind's plugins are probed one by one).
    const sql =
      filter.by === 'kind'
        ? `SELECT r.yanked_at AS at FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE r.yanked_at IS NOT NULL ${FILTERS.kind} ORDER BY r.yanked_at DESC LIMIT 1`
        : `SELECT max(r.yanked_at) AS at FROM release r WHERE r.yanked_at IS NOT NULL ${FILTERS[filter.by]}`;
    const [row]: { at: Date | string | null }[] = await (manager ?? this.dataSource.manager).query(sql, filterParams(filter));
    return row?.at ? new Date(row.at) : null;
  }

  /** The plugin a slug names, as a plugin feed shows it. */
  async pluginBySlug(slug: string, manager?: EntityManager): Promise<FeedPluginRow | null> {
    const [row]: FeedPluginRow[] = await (manager ?? this.dataSource.manager).query(
      `SELECT p.id, p.slug, p.name, p.description FROM plugin p WHERE p.slug = $1`,
      [slug],
    );
    return row ?? null;
  }

  /**
   * The users a public owner identity names (a login on a forge instance, as plugin pages show
   * it) who own at least one plugin: a login nobody publishes under is not public. Logins of
   * forge accounts can be renamed and taken again, so more than one row may answer to one login.
   */
  async ownersNamed(instance: string, login: string, manager?: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await (manager ?? this.dataSource.manager).query(
      `SELECT u.id FROM user_account u
        WHERE u.login = $1 AND u.instance = $2 AND EXISTS (SELECT 1 FROM plugin_owner o WHERE o.user_id = u.id)
        ORDER BY u.id`,
      [login, instance],
    );
    return rows.map((row) => row.id);
  }
}
