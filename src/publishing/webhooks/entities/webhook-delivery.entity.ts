import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ProblemFieldError } from '../../../common/errors/domain-error';
import type { ReleaseAssetRef } from '../../../platform/forges/webhook.types';
import { PluginEntity } from '../../../catalogue/plugins/entities/plugin.entity';

export const DELIVERY_STATUSES = ['queued', 'processing', 'succeeded', 'skipped', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type DeliverySource = 'webhook' | 'reconcile';

/**
 * One verified release delivery, and the durable job that ingests it: the worker claims rows that
 * are due (`queued` and `next_attempt_at` passed, or `processing` with an expired lease, which a
 * stopped or crashed instance left) with FOR UPDATE SKIP LOCKED.
 */
@Entity('webhook_delivery')
@Index('uq_webhook_delivery', ['provider', 'deliveryId'], { unique: true })
// A replay of a delivery under a new delivery id: the same forge, repository (its plugin), tag and body.
@Index('uq_webhook_delivery_payload', ['provider', 'pluginId', 'tag', 'payloadSha256'], { unique: true })
@Index('ix_webhook_delivery_plugin', ['pluginId', 'createdAt'])
@Index('ix_webhook_delivery_due', ['status', 'nextAttemptAt'])
@Index('ix_webhook_delivery_created', ['createdAt'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @ManyToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The forge family that sent it: github, gitlab, gitea, forgejo. */
  @Column({ type: 'varchar', length: 16 })
  provider: string;

  /** The forge's delivery id (or, when it sends none, a digest of the payload). */
  @Column({ name: 'delivery_id', type: 'varchar', length: 200 })
  deliveryId: string;

  @Column({ type: 'varchar', length: 64 })
  event: string;

  @Column({ type: 'varchar', length: 10, default: 'webhook' })
  source: DeliverySource;

  @Column({ name: 'repo_url', type: 'varchar', length: 2048 })
  repoUrl: string;

  @Column({ type: 'varchar', length: 255 })
  tag: string;

  /** The assets the payload listed; null when it listed none (read from the forge's API then). */
  @Column({ type: 'jsonb', nullable: true })
  assets: ReleaseAssetRef[] | null;

  /** SHA-256 of the raw body as received (empty for a reconcile, which has no body). */
  @Column({ name: 'payload_sha256', type: 'varchar', length: 64 })
  payloadSha256: string;

  @Column({ type: 'varchar', length: 12 })
  status: DeliveryStatus;

  /** Why it failed or was skipped: a problem code such as manifest-asset-missing. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reason: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  detail: string | null;

  @Column({ type: 'jsonb', nullable: true })
  violations: ProblemFieldError[] | null;

  /** The version recorded, once ingested. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  version: string | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
