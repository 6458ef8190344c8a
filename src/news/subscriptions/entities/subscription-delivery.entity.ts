import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { SubscriptionEventEntity } from './subscription-event.entity';
import { SubscriptionEntity } from './subscription.entity';

/** `parked`: queued while its subscription or owner is disabled; the claim never reads it (queued again on enable). */
export type SubscriptionDeliveryStatus = 'queued' | 'parked' | 'processing' | 'succeeded' | 'failed';

/**
 * One event for one subscription: the job row the worker claims (SKIP LOCKED), and the log line
 * its owner reads. Unique per (subscription, event), so an event is queued once per subscription.
 */
@Entity('subscription_delivery')
@Unique('uq_subscription_delivery_event', ['subscriptionId', 'eventId'])
/** The worker's claim, one partial index per branch: due queued rows, and processing rows whose lease lapsed. */
@Index('idx_subscription_delivery_queued', ['nextAttemptAt'], { where: `"status" = 'queued'` })
@Index('idx_subscription_delivery_processing', ['lockedUntil'], { where: `"status" = 'processing'` })
@Index('idx_subscription_delivery_log', ['subscriptionId', 'createdAt'])
export class SubscriptionDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @ManyToOne(() => SubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: SubscriptionEntity;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @ManyToOne(() => SubscriptionEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: SubscriptionEventEntity;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status: SubscriptionDeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /** The HTTP status of the last attempt's answer; null when none came (network, refused address). */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  /**
   * Why the last attempt failed, in generic words (timeout, connection refused, refused address);
   * null after a success. Never bytes of the receiver's answer, which is read and thrown away.
   */
  @Column({ type: 'varchar', length: 300, nullable: true })
  detail: string | null;

  /** How long the last attempt took, connect to the answer's end; null before one was made. */
  @Column({ name: 'duration_ms', type: 'int', nullable: true })
  durationMs: number | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
