import type { DataSource, EntityManager } from 'typeorm';

export interface CatalogueTotals {
  plugins: number;
  downloads: number;
  authors: number;
}

/** The catalogue's headline aggregates, one read-only query over the plugin tables. */
export class StatsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async catalogueTotals(manager: EntityManager = this.dataSource.manager): Promise<CatalogueTotals> {
    const [row] = (await manager.query(
      `SELECT (SELECT count(*) FROM plugin)::int AS plugins,
              (SELECT coalesce(sum(downloads), 0) FROM plugin)::text AS downloads,
              (SELECT count(DISTINCT user_id) FROM plugin_owner)::int AS authors`,
    )) as { plugins: number; downloads: string; authors: number }[];
    return { plugins: Number(row.plugins), downloads: Number(row.downloads), authors: Number(row.authors) };
  }

  /**
   * Where the catalogue change log stands (its newest entry's seq; a primary-key lookup): it moves
   * with every transaction that adds, changes or removes a plugin, its downloads included.
   */
  async cataloguePosition(manager: EntityManager = this.dataSource.manager): Promise<string> {
    const [row] = (await manager.query(`SELECT coalesce(max(seq), 0)::text AS seq FROM catalogue_change`)) as { seq: string }[];
    return row.seq;
  }
}
