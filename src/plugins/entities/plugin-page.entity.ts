import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { PluginEntity } from './plugin.entity';

/**
 * A plugin's public detail (`GET /api/plugins/:slug`, no language asked for) as its JSON text,
 * and the releases `latest` chooses from, built by PluginPageBuilder after every write that
 * changes them. They answer only while no write to the plugin logged in plugin_page_change is
 * newer than the snapshot they were read in (`read_xmin`) and `format` is the running code's: anything
 * else reads the page as it is.
 */
@Entity('plugin_page')
export class PluginPageEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @OneToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The xmin of the snapshot the page was read in: every transaction below it had ended, and is in the page. */
  @Column({ name: 'read_xmin', type: 'bigint' })
  readXmin: string;

  /** Which code built it (PAGE_FORMAT): a deploy that changes the answer's shape rebuilds every page. */
  @Column({ type: 'varchar', length: 32 })
  format: string;

  @Column({ type: 'text' })
  body: string;

  /** What `latest` weighs (PluginPageRepository.latestCandidates), from the same snapshot as `body`. */
  @Column({ type: 'json' })
  latest: unknown;
}
