import type { DataSource } from 'typeorm';
import { FreshnessStatementEntity } from './entities/freshness-statement.entity';

export type FreshnessRow = Pick<FreshnessStatementEntity, 'slug' | 'platform' | 'version' | 'assetSha256' | 'treeSize' | 'jws' | 'issuedAt' | 'expiresAt'>;

interface StoredRow {
  slug: string | null;
  platform: string | null;
  version: string | null;
  asset_sha256: string | null;
  tree_size: string | null;
  jws: string | null;
  issued_at: Date | string | null;
  expires_at: Date | string | null;
  log_size: string;
}

/** The signed freshness statements, one per plugin and platform (always the primary: instances must agree). */
export class FreshnessRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(slug: string, platform: string): Promise<FreshnessRow | null> {
    return this.dataSource.manager.getRepository(FreshnessStatementEntity).findOneBy({ slug, platform });
  }

  /**
   * The stored statement (or null) and the transparency log's size, in one round trip: an answer
   * without a reusable statement signs one over that size at once. The size is read as
   * TransparencyLog.size() reads it (the log's table is that module's; only its size is read here).
   */
  async findWithLogSize(slug: string, platform: string): Promise<{ stored: FreshnessRow | null; logSize: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT s.slug, s.platform, s.version, s.asset_sha256, s.tree_size::text AS tree_size, s.jws, s.issued_at, s.expires_at,
              (SELECT coalesce(max(l."index") + 1, 0) FROM transparency_leaf l)::text AS log_size
         FROM (SELECT 1) AS one LEFT JOIN freshness_statement s ON s.slug = $1 AND s.platform = $2`,
      [slug, platform],
    )) as StoredRow[];
    const stored: FreshnessRow | null =
      row.slug === null
        ? null
        : { slug: row.slug, platform: row.platform!, version: row.version!, assetSha256: row.asset_sha256, treeSize: Number(row.tree_size), jws: row.jws!, issuedAt: new Date(row.issued_at!), expiresAt: new Date(row.expires_at!) };
    return { stored, logSize: Number(row.log_size) };
  }

  /**
   * Stores `row` in place of the statement the caller decided to replace (`replacing`, its JWS, or
   * null when there was none): a compare-and-swap, so of two instances re-signing at once one
   * wins and the other serves the winner's. False when another writer got there first.
   */
  async replace(row: FreshnessRow, replacing: string | null): Promise<boolean> {
    const values = [row.slug, row.platform, row.version, row.assetSha256, row.treeSize, row.jws, row.issuedAt, row.expiresAt];
    const rows: unknown[] =
      replacing === null
        ? await this.dataSource.query(
            `INSERT INTO freshness_statement (slug, platform, version, asset_sha256, tree_size, jws, issued_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (slug, platform) DO NOTHING RETURNING slug`,
            values,
          )
        : await this.dataSource.query(
            `UPDATE freshness_statement SET version = $3, asset_sha256 = $4, tree_size = $5, jws = $6, issued_at = $7, expires_at = $8
             WHERE slug = $1 AND platform = $2 AND jws = $9 RETURNING slug`,
            [...values, replacing],
          );
    // pg answers an UPDATE ... RETURNING as [rows, count]; an INSERT as rows.
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return returned.length === 1;
  }
}
