import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What the proxy answers for a URL: the picture, or the problem it answered when the fetch failed. */
export type ImageProxyStatus = 'ok' | 'image-refused' | 'image-fetch-failed';

/**
 * A README image fetched through the proxy, keyed by the SHA-256 of the upstream URL, kept until
 * `expires_at`: re-encoded (`status` ok, with `bytes`), or a failure (`status` the problem code,
 * `detail` its text, no bytes) remembered for a shorter while so a broken image is not fetched
 * again at every view. Expired rows are fetched again on the next request and swept.
 */
@Entity('image_proxy_entry')
@Index('idx_image_proxy_entry_expires_at', ['expiresAt'])
export class ImageProxyEntryEntity {
  @PrimaryColumn({ name: 'url_sha256', type: 'varchar', length: 64 })
  urlSha256: string;

  @Column({ type: 'varchar', length: 24, default: 'ok' })
  status: ImageProxyStatus;

  /** For a failure: the problem's detail (host and reason), shown again while it is remembered. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  detail: string | null;

  /** SHA-256 of `bytes`: the ETag. Null for a failure. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  sha256: string | null;

  @Column({ name: 'content_type', type: 'varchar', length: 40, nullable: true })
  contentType: string | null;

  @Column({ type: 'bytea', nullable: true })
  bytes: Buffer | null;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
