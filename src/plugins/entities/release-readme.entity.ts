import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ReleaseEntity } from './release.entity';

/**
 * One release's rendered, sanitized README in one locale (`default` for the manifest's `readme`
 * or a single-locale README). Kept out of the release row, so listing releases never loads HTML;
 * the primary key (release, locale) is the lookup.
 */
@Entity('release_readme')
export class ReleaseReadmeEntity {
  @PrimaryColumn({ name: 'release_id', type: 'uuid' })
  releaseId: string;

  @ManyToOne(() => ReleaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'release_id' })
  release?: ReleaseEntity;

  @PrimaryColumn({ type: 'varchar', length: 35 })
  locale: string;

  /** Order of the locale in the manifest's `readmes` (then `default`): "first available" follows it. */
  @Column({ type: 'smallint' })
  position: number;

  @Column({ type: 'text' })
  html: string;
}
