import type { DataSource, EntityManager } from 'typeorm';

/** How many entries a feed carries: the newest releases only, like other registries' feeds. */
export const FEED_ENTRIES = 50;

/** Which releases a feed follows. */
export type FeedFilter = { by: 'all' } | { by: 'kind'; kind: string } | { by: 'plugin'; pluginId: string } | { by: 'owners'; userIds: string[] };

/** One release as a feed shows it: the plugin's current public fields and its owners' logins. */
export interface FeedReleaseRow {
  slug: string;
  name: string;
  description: string | null;
  kind: string | null;
  version: string;
  prerelease: boolean;
  createdAt: Date;
  owners: string[];
}

interface RawRow {
  slug: string;
  name: string;
  description: string | null;
  kind: string | null;
  version: string;
  prerelease: boolean;
  created_at: Date | string;
  owners: string[] | string;
}

const FILTERS: Record<FeedFilter['by'], string> = {
  all: '',
  kind: 'AND p.kind = $1',
  plugin: 'AND r.plugin_id = $1',
  owners: 'AND r.plugin_id IN (SELECT o.plugin_id FROM plugin_owner o WHERE o.user_id = ANY($1::uuid[]))',
};

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
              (SELECT coalesce(json_agg(u.login ORDER BY o.created_at, u.login), '[]'::json)
                 FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = p.id) AS owners
         FROM release r JOIN plugin p ON p.id = r.plugin_id
        WHERE r.yanked_at IS NULL ${FILTERS[filter.by]}
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
      owners: typeof row.owners === 'string' ? (JSON.parse(row.owners) as string[]) : row.owners,
    }));
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
