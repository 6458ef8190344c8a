import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The freshness statement last signed for a plugin's `latest` answer on one platform: reused
 * while it is younger than half its lifetime and names the same version and asset, so every
 * instance serves the same statement and a client never sees one older than one it saw before.
 */
@Entity('freshness_statement')
export class FreshnessStatementEntity {
  @PrimaryColumn({ type: 'varchar', length: 214 })
  slug: string;

  /** The platform key: `os-arch`, `universal`, or `all` (`/releases/latest`). */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  platform: string;

  @Column({ type: 'varchar', length: 256 })
  version: string;

  @Column({ name: 'asset_sha256', type: 'varchar', length: 64, nullable: true })
  assetSha256: string | null;

  @Column({ name: 'tree_size', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  treeSize: number;

  /** The compact JWS as served. */
  @Column({ type: 'text' })
  jws: string;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
