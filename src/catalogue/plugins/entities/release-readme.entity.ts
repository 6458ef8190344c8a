import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ReleaseEntity } from './release.entity';

/**
 * One release's rendered, sanitized README in one locale (`default` for the manifest's `readme`
 * or a single-locale README). Kept out of the release row, so listing releases never loads HTML;
 * the primary key (release, locale) is the lookup.
 */
@Entity('release_readme')
// Finds what an older renderer produced (normally nothing) without reading every README.
@Index('idx_release_readme_render_version', ['renderVersion'])
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

  /** The markdown `html` was rendered from; null on READMEs stored before it was kept (they can only be sanitized again). */
  @Column({ type: 'text', nullable: true })
  markdown: string | null;

  /** Where its relative links and images resolve (the renderer's ReadmeContextSpec); null with `markdown`. */
  @Column({ name: 'render_context', type: 'jsonb', nullable: true })
  renderContext: object | null;

  /** README_RENDER_VERSION of the renderer that produced `html`: an older one is re-rendered in the background. */
  @Column({ name: 'render_version', type: 'integer', default: 0 })
  renderVersion: number;
}
