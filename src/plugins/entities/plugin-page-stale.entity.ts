import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Plugins whose stored page (plugin_page) is out of date: marked by the same triggers that bump
 * `page_stamp`, taken by PluginPageBuilder. Not a foreign key: a deleted plugin's mark is taken
 * and dropped like any other.
 */
@Entity('plugin_page_stale')
@Index('idx_plugin_page_stale_marked_at', ['markedAt'])
export class PluginPageStaleEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @Column({ name: 'marked_at', type: 'timestamptz', default: () => 'now()' })
  markedAt: Date;
}
