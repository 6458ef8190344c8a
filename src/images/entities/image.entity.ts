import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One encoded picture (an icon or screenshot at one width), named by the SHA-256 of its bytes:
 * served at `/images/<sha256>.webp`, so every instance serves what any one stored, and the same
 * picture published twice is stored once. Rows are never changed.
 */
@Entity('image')
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
