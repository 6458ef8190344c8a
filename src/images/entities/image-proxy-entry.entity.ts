import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A README image fetched through the proxy, re-encoded, kept until `expires_at`: keyed by the
 * SHA-256 of the upstream URL. Expired rows are fetched again on the next request and swept.
 */
@Entity('image_proxy_entry')
@Index('idx_image_proxy_entry_expires_at', ['expiresAt'])
export class ImageProxyEntryEntity {
  @PrimaryColumn({ name: 'url_sha256', type: 'varchar', length: 64 })
  urlSha256: string;

  /** SHA-256 of `bytes`: the ETag. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ name: 'content_type', type: 'varchar', length: 40 })
  contentType: string;

  @Column({ type: 'bytea' })
  bytes: Buffer;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
