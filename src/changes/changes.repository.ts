import type { DataSource } from 'typeorm';

/** One row of the log as the feed reads it. */
export interface CatalogueEventRow {
  seq: string;
  type: string;
  slug: string | null;
  version: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

/** Every query on the changes feed's log. */
export class ChangesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` events after `since`, in order: a range scan of the primary key. Writers commit
   * their seqs in order (see the ChangesFeed migration), so whatever this snapshot sees after
   * `since` has no gap that a later commit could fill.
   */
  after(since: bigint, limit: number): Promise<CatalogueEventRow[]> {
    return this.dataSource.query(
      // Ordered by the column, not the text alias (text orders '10' before '9').
      'SELECT e.seq::text AS seq, e.type, e.slug, e.version, e.data, e.created_at FROM catalogue_event e WHERE e.seq > $1 ORDER BY e.seq LIMIT $2',
      [since.toString(), limit],
    );
  }
}
