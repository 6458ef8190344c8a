import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PluginEntity } from './plugin.entity';

/**
 * A plugin's downloads on one UTC day, added to by the download counter's batched write (the
 * same statement that adds to `plugin.downloads`). Kept DOWNLOAD_DAYS_KEPT days; the primary key
 * (plugin, day) is the chart's range scan. A release deleted later leaves its days here, as its
 * downloads stay in `plugin.downloads`.
 */
@Entity('plugin_download_day')
// The daily prune finds the old days without reading every plugin's.
@Index('idx_plugin_download_day_day', ['day'])
export class PluginDownloadDayEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @ManyToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The UTC calendar day, `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'date' })
  day: string;

  /** bigint, which the driver answers as a string. */
  @Column({ type: 'bigint', default: 0 })
  downloads: string;
}
