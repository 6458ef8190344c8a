import type { DataSource, EntityManager } from 'typeorm';
import { FreshnessStatementEntity } from './entities/freshness-statement.entity';

export type FreshnessRow = Pick<FreshnessStatementEntity, 'slug' | 'platform' | 'version' | 'assetSha256' | 'treeSize' | 'jws' | 'issuedAt' | 'expiresAt'>;

/** The signed freshness statements, one per plugin and platform (always the primary: instances must agree). */
export class FreshnessRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(slug: string, platform: string): Promise<FreshnessRow | null> {
    return this.dataSource.manager.getRepository(FreshnessStatementEntity).findOneBy({ slug, platform });
  }

  /**
   * Stores `row` in place of the statement the caller decided to replace (`replacing`, its JWS, or
   * null when there was none): a compare-and-swap, so of two instances re-signing at once one
   * wins and the other serves the winner's. False when another writer got there first.
   */
  async replace(row: FreshnessRow, replacing: string | null): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // A statement is a cache of a signature this registry can make again: its commit need not
      // wait for the WAL flush (the wait was most of an uncached `latest` answer's time). A crash
      // of the database server can lose the newest statements; the next answer signs a new one.
      await manager.query('SET LOCAL synchronous_commit = off');
      return this.compareAndSwap(manager, row, replacing);
    });
  }

  private async compareAndSwap(manager: EntityManager, row: FreshnessRow, replacing: string | null): Promise<boolean> {
    const values = [row.slug, row.platform, row.version, row.assetSha256, row.treeSize, row.jws, row.issuedAt, row.expiresAt];
    const rows: unknown[] =
      replacing === null
        ? await manager.query(
            `INSERT INTO freshness_statement (slug, platform, version, asset_sha256, tree_size, jws, issued_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (slug, platform) DO NOTHING RETURNING slug`,
            values,
          )
        : await manager.query(
            `UPDATE freshness_statement SET version = $3, asset_sha256 = $4, tree_size = $5, jws = $6, issued_at = $7, expires_at = $8
             WHERE slug = $1 AND platform = $2 AND jws = $9 RETURNING slug`,
            [...values, replacing],
          );
    // pg answers an UPDATE ... RETURNING as [rows, count]; an INSERT as rows.
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return returned.length === 1;
  }
}
