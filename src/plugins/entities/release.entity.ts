import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { IntegrityAsset } from '../../lib/integrity';
import { PluginEntity } from './plugin.entity';

/** One asset as ingested: where it came from, what was measured, and where it fits. */
export interface StoredAsset {
  name: string;
  url: string;
  size: number;
  sha256: string | null;
  hashed: boolean;
  contentType: string;
  os: string;
  arch: string;
}

export interface StoredIntegrity {
  jws: string;
  kid: string;
  assets: IntegrityAsset[];
}

/**
 * A release of a plugin, indexed by (plugin, version). `version_key` drops build metadata, so
 * `1.0.0+a` and `1.0.0+b` are the same release and the second is a conflict.
 */
@Entity('release')
@Index('uq_release_plugin_version_key', ['pluginId', 'versionKey'], { unique: true })
export class ReleaseEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @ManyToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  @Column({ type: 'varchar', length: 40 })
  version: string;

  @Column({ name: 'version_key', type: 'varchar', length: 40 })
  versionKey: string;

  @Column({ type: 'boolean', default: false })
  prerelease: boolean;

  @Column({ name: 'min_runtime_version', type: 'varchar', length: 40, nullable: true })
  minRuntimeVersion: string | null;

  @Column({ type: 'jsonb' })
  assets: StoredAsset[];

  /** Null only for legacy releases ingested before signing existed. */
  @Column({ type: 'jsonb', nullable: true })
  integrity: StoredIntegrity | null;

  /** The parsed manifest; its RFC 8785 form hashes to `manifest_sha256`. */
  @Column({ type: 'jsonb' })
  manifest: Record<string, unknown>;

  @Column({ name: 'manifest_raw', type: 'text' })
  manifestRaw: string;

  @Column({ name: 'manifest_sha256', type: 'varchar', length: 64 })
  manifestSha256: string;

  /** Rendered, sanitized README HTML by locale (`default` for a single-locale README). */
  @Column({ name: 'readme_html', type: 'jsonb', default: () => "'{}'" })
  readmeHtml: Record<string, string>;

  @Column({ type: 'varchar', length: 10 })
  source: 'push' | 'webhook';

  @Column({ name: 'yanked_at', type: 'timestamptz', nullable: true })
  yankedAt: Date | null;

  @Column({ name: 'yank_reason', type: 'varchar', length: 500, nullable: true })
  yankReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
