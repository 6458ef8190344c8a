import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { IntegrityAsset } from '../../../lib/integrity';
import { PluginEntity } from './plugin.entity';

/**
 * Who published a release (public): a CI job proven by its forge's OIDC ID token (trusted
 * publishing), a publisher token, or a release webhook.
 */
export type PublishedBy =
  | { kind: 'trusted'; forge: string; repository: string; workflow: string | null; ref: string | null }
  | { kind: 'token' }
  | { kind: 'webhook' };

/**
 * What ingest made of the release's attestation, kept beside the signed list (which carries the
 * attestation verbatim, as the spec defines it): a Sigstore bundle that verified, any other
 * attestation passed through unchecked, or none.
 */
export type ProvenanceStatus = 'verified' | 'unverified' | 'absent';

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

/** One encoding of a picture: served at `/images/<sha256>.webp`. */
export interface StoredImageVariant {
  width: number;
  height: number;
  sha256: string;
}

/**
 * The release's icon and screenshots as the registry fetched, checked and encoded them at ingest.
 * A screenshot that failed is absent (`index` is its place in the manifest's `screenshots`).
 */
export interface StoredReleaseImages {
  icon: { variants: StoredImageVariant[] } | null;
  screenshots: { index: number; caption: string | null; alt: string | null; variants: StoredImageVariant[] }[];
}

/** A signed asset as stored: the attestation is kept once per release, not on every asset. */
export type StoredIntegrityAsset = Omit<IntegrityAsset, 'attestation'>;

export interface StoredIntegrity {
  jws: string;
  kid: string;
  assets: StoredIntegrityAsset[];
}

/**
 * A release of a plugin, indexed by (plugin, version). `version_key` drops build metadata, so
 * `1.0.0+a` and `1.0.0+b` are the same release and the second is a conflict.
 */
@Entity('release')
@Index('uq_release_plugin_version_key', ['pluginId', 'versionKey'], { unique: true })
@Index('idx_release_plugin_version_sort', ['pluginId', 'versionSort'])
// The Atom feeds' walks (src/news/feeds): the newest live releases of the catalogue, and of one plugin.
@Index('idx_release_feed', ['createdAt', 'id'], { where: '"yanked_at" IS NULL' })
@Index('idx_release_plugin_feed', ['pluginId', 'createdAt'], { where: '"yanked_at" IS NULL' })
// The newest yank a feed has seen (its `updated` must not go back when an entry is taken out).
@Index('idx_release_yanked', ['yankedAt'], { where: '"yanked_at" IS NOT NULL' })
@Index('idx_release_plugin_yanked', ['pluginId', 'yankedAt'], { where: '"yanked_at" IS NOT NULL' })
// An expression index (integrity->>'kid'), written by hand in the ReleaseSigningKidIndex migration.
@Index('idx_release_signing_kid', { synchronize: false })
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

  /** `versionSortKey(version)`: byte order is SemVer precedence, so "latest" is an indexed ORDER BY. */
  @Column({ name: 'version_sort', type: 'varchar', length: 200, collation: 'C' })
  versionSort: string;

  @Column({ type: 'boolean', default: false })
  prerelease: boolean;

  @Column({ name: 'min_runtime_version', type: 'varchar', length: 40, nullable: true })
  minRuntimeVersion: string | null;

  @Column({ type: 'jsonb' })
  assets: StoredAsset[];

  /** Null only for legacy releases ingested before signing existed. */
  @Column({ type: 'jsonb', nullable: true })
  integrity: StoredIntegrity | null;

  /**
   * The manifest's spec fields, as the catalogue shows them. An admin's Refresh manifest may
   * correct them (and `extensions`) after the fact; what was signed is `manifest_canonical`.
   */
  @Column({ type: 'jsonb' })
  manifest: Record<string, unknown>;

  /** The declared extension fields of the manifest (null when none), as the catalogue shows them. */
  @Column({ type: 'jsonb', nullable: true })
  extensions: Record<string, unknown> | null;

  /** The RFC 8785 bytes that were hashed into `manifest_sha256` (extension fields included), served verbatim. */
  @Column({ name: 'manifest_canonical', type: 'text' })
  manifestCanonical: string;

  /** The icon and screenshots served from this registry; null on releases ingested before pictures were fetched. */
  @Column({ type: 'jsonb', nullable: true })
  images: StoredReleaseImages | null;

  /** The build-provenance attestation given with the push; every signed asset carries it. */
  @Column({ type: 'jsonb', nullable: true })
  attestation: unknown | null;

  @Column({ name: 'provenance_status', type: 'varchar', length: 10, default: 'absent' })
  provenanceStatus: ProvenanceStatus;

  /** The verified signer (null unless `verified`): the repository URL its certificate names, */
  @Column({ name: 'provenance_repository', type: 'text', nullable: true })
  provenanceRepository: string | null;

  /** ... the workflow file (or CI configuration path) within it, */
  @Column({ name: 'provenance_workflow', type: 'text', nullable: true })
  provenanceWorkflow: string | null;

  /** ... the ref it ran at, */
  @Column({ name: 'provenance_ref', type: 'text', nullable: true })
  provenanceRef: string | null;

  /** ... the OIDC issuer that vouched for the job, */
  @Column({ name: 'provenance_issuer', type: 'text', nullable: true })
  provenanceIssuer: string | null;

  /** ... and the trusted time of the signature (the log's integrated time or the RFC 3161 time). */
  @Column({ name: 'provenance_signed_at', type: 'timestamptz', nullable: true })
  provenanceSignedAt: Date | null;

  @Column({ name: 'manifest_raw', type: 'text' })
  manifestRaw: string;

  @Column({ name: 'manifest_sha256', type: 'varchar', length: 64 })
  manifestSha256: string;

  @Column({ type: 'varchar', length: 10 })
  source: 'push' | 'webhook' | 'reconcile';

  /** Null on releases recorded before it was kept: their `source` says (push: token, else webhook). */
  @Column({ name: 'published_by', type: 'jsonb', nullable: true })
  publishedBy: PublishedBy | null;

  @Column({ name: 'yanked_at', type: 'timestamptz', nullable: true })
  yankedAt: Date | null;

  @Column({ name: 'yank_reason', type: 'varchar', length: 500, nullable: true })
  yankReason: string | null;

  /**
   * The transparency-log entry of the signature this release carries now: its `release` entry,
   * or the `resign` entry of its latest re-signing. Null for releases recorded before the log.
   */
  @Column({ name: 'log_index', type: 'bigint', nullable: true })
  logIndex: string | null;

  /** Downloads counted by the registry's download route (GET only). */
  @Column({ type: 'bigint', default: 0 })
  downloads: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
