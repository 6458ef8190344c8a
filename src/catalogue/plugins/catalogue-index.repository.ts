import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../../persistence/prepared-query';
import { toCatalogueItemDto } from './catalogue.mapper';
import type { CatalogueItemDto } from './dto/catalogue.dto';
import { PLUGIN_ROW_COLUMNS, pluginOfRow, type PluginRow } from './plugin-row';
import type { SearchDocument } from './search-index';

/** A logged write to one plugin, with the plugin's indexed columns as the reading snapshot sees them (null: deleted). */
export interface CatalogueChange {
  seq: number;
  pluginId: string;
  doc: SearchDocument | null;
}

/** What one snapshot says of the change log: every change from `since` on, and the snapshot's xmin. */
export interface ChangeFeed {
  changes: CatalogueChange[];
  /** Every transaction below it had ended when the snapshot was taken. */
  xmin: number;
  /** `settings_version` as the snapshot saw it (the declared extension fields move it): the facets compare it. */
  settingsVersion: string;
}

/** The columns the index reads, as one JSON object per plugin of the row `d` (the change feed's `doc`). */
const docJson = (
  d: string,
) => `json_build_object('id', ${d}.id, 'slug', ${d}.slug, 'name', ${d}.name, 'description', ${d}.description, 'category', ${d}.category,
  'kind', ${d}.kind, 'tags', ${d}.tags, 'extensions', ${d}.extensions, 'readme', left(${d}.search_readme, 2002), 'featured', ${d}.featured,
  'verifiedAt', ${d}.verified_at, 'latestReleaseAt', ${d}.latest_release_at, 'createdAt', ${d}.created_at, 'deprecatedAt', ${d}.deprecated_at)`;

/**
 * The change feed as one JSON column; `$1` is the reader's stable xmin. Each change's document is
 * a lookup by primary key: a join let a prepared statement's generic plan, made while the log
 * still held a seed's 100k rows, hash the whole plugin table for every page read.
 */
const CHANGES_SINCE = `(SELECT coalesce(json_agg(json_build_object('seq', c.seq, 'pluginId', c.plugin_id, 'doc', (SELECT ${docJson('d')} FROM plugin d WHERE d.id = c.plugin_id)) ORDER BY c.seq), '[]'::json)
    FROM catalogue_change c WHERE c.txid >= $1) AS changes,
  pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
  (SELECT version FROM settings_version WHERE id = 1)::text AS settings_version`;

interface FeedRow {
  changes: unknown;
  xmin: string;
  settings_version: string | null;
}

type DocJson = Omit<SearchDocument, 'verifiedAt' | 'latestReleaseAt' | 'createdAt' | 'deprecatedAt'> & {
  verifiedAt: string | null;
  latestReleaseAt: string | null;
  createdAt: string;
  deprecatedAt: string | null;
};

/** JSON spells timestamps as text; the index compares epoch milliseconds. */
function documentOf(doc: DocJson): SearchDocument {
  const ms = (at: string | null) => (at === null ? null : Date.parse(at));
  return {
    ...doc,
    verifiedAt: ms(doc.verifiedAt),
    latestReleaseAt: ms(doc.latestReleaseAt),
    createdAt: Date.parse(doc.createdAt),
    deprecatedAt: ms(doc.deprecatedAt ?? null),
  };
}

function feedOf(row: FeedRow): ChangeFeed {
  const changes = (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as {
    seq: number | string;
    pluginId: string;
    doc: DocJson | null;
  }[];
  return {
    changes: changes.map((c) => ({ seq: Number(c.seq), pluginId: c.pluginId, doc: c.doc && documentOf(c.doc) })),
    xmin: Number(row.xmin),
    settingsVersion: row.settings_version ?? '0',
  };
}

/**
 * A uuid[] parameter in Postgres' array syntax. pg's own array encoder quotes and escapes every
 * element (a percent of a page's server time); a uuid has nothing to quote, and these come from
 * the database's own id column.
 */
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** The in-memory catalogue index's queries: loading it, its change feed, and a page's rows by id. */
export class CatalogueIndexRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` plugins after `afterId` (keyset order), as index documents and list items. */
  async documents(
    afterId: string | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ doc: SearchDocument; item: CatalogueItemDto }[]> {
    const rows: (PluginRow & { doc: DocJson })[] = await manager.query(
      `SELECT ${docJson('p')} AS doc, ${PLUGIN_ROW_COLUMNS} FROM plugin p WHERE ($1::uuid IS NULL OR p.id > $1::uuid) ORDER BY p.id LIMIT $2`,
      [afterId, limit],
    );
    return rows.map((row) => {
      const doc = documentOf(row.doc);
      // One string object for the id in both: a page looks its items up by the index's ids, and a
      // Map finds a key that is the same object about three times faster than an equal copy.
      return { doc, item: toCatalogueItemDto(pluginOfRow({ ...row, id: doc.id })) };
    });
  }

  /** The change feed alone (the background catch-up). */
  async changes(since: number, manager: EntityManager = this.dataSource.manager): Promise<ChangeFeed> {
    const [row] = await preparedQuery<FeedRow>(manager, 'catalogue_changes', `SELECT ${CHANGES_SINCE}`, [since]);
    return feedOf(row);
  }

  /**
   * A page's rows by id, in one round trip with the change feed of the same snapshot: when the
   * feed holds nothing the index has not seen, the page the index chose is that snapshot's page.
   */
  async page(
    ids: readonly string[],
    since: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeFeed & { items: CatalogueItemDto[] }> {
    const rows = await preparedQuery<FeedRow & Partial<PluginRow>>(
      manager,
      'catalogue_page',
      `SELECT f.changes, f.xmin, f.settings_version, ${PLUGIN_ROW_COLUMNS} FROM (SELECT ${CHANGES_SINCE}) f LEFT JOIN plugin p ON p.id = ANY($2::uuid[])`,
      [since, uuidArray(ids)],
    );
    const byId = new Map(rows.filter((row) => row.id).map((row) => [row.id!, toCatalogueItemDto(pluginOfRow(row as PluginRow))]));
    // A lagging replica may not have a plugin the index already knows: it is left out, not an error.
    const items = ids.flatMap((id) => byId.get(id) ?? []);
    return { ...feedOf(rows[0]), items };
  }

  /** Forgets changes older than `olderThanMs`; every instance catches up far more often than that. */
  async prune(olderThanMs: number): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM catalogue_change WHERE changed_at < now() - make_interval(secs => $1)`,
      [olderThanMs / 1000],
    );
    return result[1] ?? 0;
  }
}
