import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';
import type { SubscriptionScope } from '../event-types';

/** A URL a user asked to be told about events at (outbound webhooks, docs/subscriptions.md). */
@Entity('subscription')
@Index('idx_subscription_user', ['userId'])
/** The fan-out's plugin, kind and registry branches (subscription_fan_out). */
@Index('idx_subscription_scope_target', ['scope', 'target'], { where: '"disabled_at" IS NULL' })
export class SubscriptionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  description: string | null;

  /** Event types (event-types.ts). */
  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'varchar', length: 16 })
  scope: SubscriptionScope;

  /** The plugin's slug (scope plugin) or the kind's key (scope kind); null otherwise. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  target: string | null;

  /** The signing secret (`whsec_...`), sealed with KEY_ENCRYPTION_KEY: the server needs it to sign. */
  @Column({ name: 'secret_sealed', type: 'bytea', select: false })
  secretSealed: Buffer;

  /** When deliveries started failing without a success since; null while they succeed. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /**
   * Until when the attempt under way to this URL holds its claim (the delivery's lease, renewed
   * with it); null or past when none is. The worker claims no second delivery of a subscription
   * while it is set, so a slow receiver has at most one request open at a time.
   */
  @Column({ name: 'in_flight_until', type: 'timestamptz', nullable: true })
  inFlightUntil: Date | null;

  /**
   * The claim holding the in-flight lease (its delivery and that delivery's attempts count): only
   * that claim renews or clears it, so a claim whose lease lapsed cannot touch the next one's.
   */
  @Column({ name: 'in_flight_delivery_id', type: 'uuid', nullable: true })
  inFlightDeliveryId: string | null;

  @Column({ name: 'in_flight_attempts', type: 'int', nullable: true })
  inFlightAttempts: number | null;

  /** Set when it was disabled (failing for days, or by its owner); no event is delivered then. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 300, nullable: true })
  disabledReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
