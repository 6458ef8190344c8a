import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { PluginEntity } from './plugin.entity';

/**
 * A plugin's public detail (`GET /api/plugins/:slug`, no language asked for) as its JSON text,
 * and the releases `latest` chooses from, built by PluginPageBuilder after every write that
 * changes them. They answer only while every write to the plugin logged in plugin_page_change is
 * visible in the snapshot they were read in (`read_snapshot`) and `format` is the running code's:
 * anything else reads the page as it is.
 */
@Entity('plugin_page')
export class PluginPageEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @OneToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The snapshot the page was read in (`pg_snapshot` as text): the writes it holds are those visible in it. */
  @Column({ name: 'read_snapshot', type: 'text' })
  readSnapshot: string;

  /** Which code built it (PAGE_FORMAT): a deploy that changes the answer's shape rebuilds every page. */
  @Column({ type: 'varchar', length: 32 })
  format: string;

  @Column({ type: 'text' })
  body: string;

  /** What `latest` weighs (PluginPageRepository.latestCandidates), from the same snapshot as `body`. */
  @Column({ type: 'json' })
  latest: unknown;
}
