import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ReleaseEntity } from './release.entity';

/** A release's downloads on one UTC day: as `plugin_download_day`, one row per release (gone with the release). */
@Entity('release_download_day')
@Index('idx_release_download_day_day', ['day'])
export class ReleaseDownloadDayEntity {
  @PrimaryColumn({ name: 'release_id', type: 'uuid' })
  releaseId: string;

  @ManyToOne(() => ReleaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'release_id' })
  release?: ReleaseEntity;

  /** The UTC calendar day, `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'bigint', default: 0 })
  downloads: string;
}
