import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { PluginEntity } from './plugin.entity';

/**
 * A plugin's public detail (`GET /api/plugins/:slug`, no language asked for) as its JSON text,
 * and the releases `latest` chooses from, built by PluginPageBuilder after every write that changes it. It answers only while `stamp`
 * equals the plugin's `page_stamp` (bumped by triggers in every writing transaction) and `format`
 * is the running code's: anything else reads the page as it is.
 */
@Entity('plugin_page')
export class PluginPageEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @OneToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The plugin's `page_stamp` in the snapshot the body was built from. */
  @Column({ type: 'bigint' })
  stamp: string;

  /** Which code built it (PAGE_FORMAT): a deploy that changes the answer's shape rebuilds every page. */
  @Column({ type: 'varchar', length: 32 })
  format: string;

  @Column({ type: 'text' })
  body: string;

  /** What `latest` weighs (PluginPageRepository.latestCandidates), from the same snapshot as `body`. */
  @Column({ type: 'json' })
  latest: unknown;
}
