import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One encoded picture (an icon or screenshot at one width), named by the SHA-256 of its bytes:
 * served at `/images/<sha256>.webp`, so every instance serves what any one stored, and the same
 * picture published twice is stored once. Its bytes are never changed.
 *
 * An ingest stores each picture as soon as it is encoded, not holding it until the release is
 * recorded (so the bytes one instance holds stay bounded), as pending until `pending_until`: the
 * release's transaction confirms it (null), and a pending row past that time, whose ingest failed,
 * is deleted (ImageStore). A pending picture is not served.
 */
@Entity('image')
@Index('idx_image_pending_until', ['pendingUntil'], { where: '"pending_until" IS NOT NULL' })
export class ImageEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ name: 'content_type', type: 'varchar', length: 40 })
  contentType: string;

  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  @Column({ type: 'bytea' })
  bytes: Buffer;

  @Column({ name: 'pending_until', type: 'timestamptz', nullable: true })
  pendingUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
