import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One write to a plugin's catalogue columns, logged by a trigger on `plugin` in the writing
 * transaction: how every instance's in-memory catalogue index learns what changed, whichever
 * instance (or operator command) made the change. Rows older than an hour are pruned.
 */
@Entity('catalogue_change')
@Index('idx_catalogue_change_txid', ['txid'])
@Index('idx_catalogue_change_changed_at', ['changedAt'])
export class CatalogueChangeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq: string;

  /** Not a foreign key: a deleted plugin's change outlives it. */
  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  /** The writing transaction's id (`pg_current_xact_id()`), compared with a reader's snapshot xmin. */
  @Column({ type: 'bigint' })
  txid: string;

  @CreateDateColumn({ name: 'changed_at', type: 'timestamptz' })
  changedAt: Date;
}
