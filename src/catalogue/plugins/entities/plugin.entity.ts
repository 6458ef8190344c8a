import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A plugin: its slug (pinned at the first submit), the repository it is anchored to, and the
 * catalogue fields of its latest release's manifest.
 */
@Entity('plugin')
@Index('uq_plugin_slug', ['slug'], { unique: true })
@Index('uq_plugin_repo_identity', ['repoIdentity'], { unique: true })
// The catalogue's indexes are expressions (verified-first sort keys, trigram and full-text GIN):
// written by hand in the CatalogueIndexes migration, so the schema diff leaves them alone.
@Index('idx_plugin_search_vector', { synchronize: false })
@Index('idx_plugin_name_trgm', { synchronize: false })
@Index('idx_plugin_sort_updated', { synchronize: false })
@Index('idx_plugin_sort_new', { synchronize: false })
@Index('idx_plugin_sort_name', { synchronize: false })
@Index('idx_plugin_sort_featured', { synchronize: false })
@Index('idx_plugin_featured_updated', { synchronize: false })
@Index('idx_plugin_category', { synchronize: false })
@Index('idx_plugin_kind', { synchronize: false })
@Index('idx_plugin_tags', { synchronize: false })
@Index('idx_plugin_extensions', { synchronize: false })
export class PluginEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

  /** Display name: the latest manifest's `name` (the slug itself never changes). */
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'repo_url', type: 'varchar', length: 2048 })
  repoUrl: string;

  /** Normalized repository URL: one repository, one slug. */
  @Column({ name: 'repo_identity', type: 'varchar', length: 2048 })
  repoIdentity: string;

  @Column({ type: 'varchar', length: 280, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  category: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  kind: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tags: string[];

  @Column({ type: 'varchar', length: 40, nullable: true })
  license: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  icon: string | null;

  /** SHA-256 of the shown release's icon encoded at LIST_ICON_WIDTH (`/images/<hash>.webp`); null when it has none served. */
  @Column({ name: 'icon_image', type: 'varchar', length: 64, nullable: true })
  iconImage: string | null;

  /** The latest manifest's fields, as published. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  extensions: Record<string, unknown> | null;

  @Column({ name: 'latest_version', type: 'varchar', length: 40, nullable: true })
  latestVersion: string | null;

  /**
   * The transparency log's size just after this plugin's last release, yank, unyank or delete entry: the
   * `tree_size` its freshness statements name, so every instance names the same one.
   */
  @Column({ name: 'log_size', type: 'bigint', default: '0' })
  logSize: string;

  /** The highest live prerelease above `latestVersion` (or the highest at all when no stable release exists). */
  @Column({ name: 'latest_prerelease', type: 'varchar', length: 40, nullable: true })
  latestPrerelease: string | null;

  /** True when the claimer proved admin rights on the repository through its forge at claim time. */
  @Column({ name: 'repo_verified', type: 'boolean', default: false })
  repoVerified: boolean;

  @Column({ name: 'latest_release_at', type: 'timestamptz', nullable: true })
  latestReleaseAt: Date | null;

  @Column({ type: 'boolean', default: false })
  featured: boolean;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @Column({ name: 'verified_by', type: 'uuid', nullable: true })
  verifiedBy: string | null;

  @Column({ type: 'bigint', default: 0 })
  downloads: string;

  /** Set while the owners (or an admin) mark the plugin deprecated: it sinks below every other plugin in each sort. */
  @Column({ name: 'deprecated_at', type: 'timestamptz', nullable: true })
  deprecatedAt: Date | null;

  /** Why, and what to do instead (1-500 characters); set exactly when `deprecatedAt` is. */
  @Column({ name: 'deprecation_message', type: 'varchar', length: 500, nullable: true })
  deprecationMessage: string | null;

  /**
   * The slug of the plugin to use instead, if any (a public plugin, never this one). A foreign key
   * to the plugin's slug: deleting the replacement (operator SQL) clears it, so no notice or `Link`
   * header ever points at a plugin that is gone.
   */
  @ForeignKey(() => PluginEntity, 'slug', { name: 'fk_plugin_deprecated_replacement', onDelete: 'SET NULL' })
  @Column({ name: 'deprecated_replacement', type: 'varchar', length: 64, nullable: true })
  deprecatedReplacement: string | null;

  @Column({ name: 'deprecated_by', type: 'uuid', nullable: true })
  deprecatedBy: string | null;

  /** The latest release's README as plain text (bounded): the lowest-weight part of the search document. */
  @Column({ name: 'search_readme', type: 'text', default: '', select: false })
  searchReadme: string;

  /** Kept by the plugin_search_vector trigger from name, description, tags, category, kind and README text. */
  @Column({ name: 'search_vector', type: 'tsvector', nullable: true, select: false, insert: false, update: false })
  searchVector: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
