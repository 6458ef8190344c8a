import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * One entry of the transparency log (docs/transparency-log.md): its bytes (a canonical-JSON
 * LogEntry) and its RFC 9162 leaf hash. Append-only: a row is never updated or deleted; a deleted
 * release only loses the link (the entry stays, as the log must).
 */
@Entity('transparency_leaf')
// Deleting a release sets its entries' link to null: an index probe, not a scan of the log.
@Index('idx_transparency_leaf_release', ['releaseId'])
export class TransparencyLeafEntity {
  /** The leaf index: 0, 1, 2 … with no gap (appends are serialised by an advisory lock). */
  @PrimaryColumn({ type: 'bigint' })
  index: string;

  @Column({ type: 'bytea' })
  entry: Buffer;

  @Column({ name: 'leaf_hash', type: 'bytea' })
  leafHash: Buffer;

  /** The release a `release` or `resign` entry is about, while it exists. */
  @Column({ name: 'release_id', type: 'uuid', nullable: true })
  releaseId: string | null;

  // The release entity by its name, not its class: the log sits below the catalogue's modules
  // (integrity and ingest append to it), so it does not import them; the foreign key is the same.
  @ManyToOne('ReleaseEntity', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'release_id' })
  release?: object;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
