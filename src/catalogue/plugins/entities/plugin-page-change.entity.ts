import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A write that changed what a plugin's page shows, logged by triggers in the writing transaction
 * (any write to the plugin, its releases, READMEs or owners, or an owner's login). Rows are only
 * ever inserted by writers, so logging takes no lock another writer could wait for; a stored page
 * answers only while no row of its plugin is newer than the snapshot it was built from, and
 * PluginPageBuilder deletes the rows a page it stored has absorbed. Not a foreign key: a deleted
 * plugin's rows are taken like any other.
 */
@Entity('plugin_page_change')
@Index('idx_plugin_page_change_plugin_txid', ['pluginId', 'txid'])
export class PluginPageChangeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  /** The writing transaction's id (`pg_current_xact_id()`). */
  @Column({ type: 'bigint' })
  txid: string;
}
