import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Where a mirror (MIRROR_OF) is in its upstream's changes feed: one row, so a restart resumes at
 * the last change applied. The cursor moves in the transaction that applies the change.
 */
@Entity('mirror_state')
export class MirrorStateEntity {
  /** Always 1. */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  /** The upstream the cursor belongs to: pointed at another, the mirror starts from the beginning. */
  @Column({ type: 'varchar', length: 2048 })
  upstream: string;

  /** Upstream's changes-feed cursor (`next`) after the last change applied; null: none yet. */
  @Column({ type: 'varchar', length: 24, nullable: true })
  cursor: string | null;

  @Column({ name: 'last_poll_at', type: 'timestamptz', nullable: true })
  lastPollAt: Date | null;

  /** Why the last poll failed (transport, not a refusal); null after a good one. */
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;
}
