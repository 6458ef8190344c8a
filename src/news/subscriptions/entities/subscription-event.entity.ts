import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event subscriptions may be told about, written by the `subscription_fan_out` trigger on
 * `audit_entry` in the audited transaction. Its id is the audit entry's, and the `webhook-id`
 * of every delivery of it (the same on retries and replays, so receivers de-duplicate).
 */
@Entity('subscription_event')
@Index('idx_subscription_event_created_at', ['createdAt'])
export class SubscriptionEventEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  slug: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  kind: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
