import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change to public catalogue state (a release published, yanked, deleted; a plugin verified,
 * deprecated, deleted; the key set changed), written by triggers in the changing transaction (on
 * `audit_entry` for audited actions, on `plugin` for deletions): the changes feed
 * (`GET /api/changes`) serves these in `seq` order. Kept for good (docs/changes-feed.md).
 */
@Entity('catalogue_event')
export class CatalogueEventEntity {
  /** The feed's order and cursor; writers take one lock for their transaction's rest, so seqs commit in order. */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  seq: string;

  /** The writing transaction's id (`pg_current_xact_id()`), for diagnosis. */
  @Column({ type: 'bigint' })
  txid: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  slug: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  version: string | null;

  /** Public fields only (never an actor, an address or a user id). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  data: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The change as the feed writes it (ChangeDto's JSON), stamped by a trigger on insert; not read as an entity. */
  @Column({ type: 'text', select: false, insert: false, update: false })
  change: string;
}
