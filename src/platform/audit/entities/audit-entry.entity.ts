import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One audited action (docs/decisions.md#successful-actions-are-audited-too): who did what to which
 * plugin, from where, and when.
 */
@Entity('audit_entry')
@Index('idx_audit_entry_created_at', ['createdAt'])
@Index('idx_audit_entry_action_created_at', ['action', 'createdAt'])
@Index('idx_audit_entry_slug_created_at', ['slug', 'createdAt'])
export class AuditEntryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ name: 'actor_user_id', type: 'uuid', nullable: true })
  actorUserId: string | null;

  @Column({ name: 'actor_token_id', type: 'uuid', nullable: true })
  actorTokenId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  slug: string | null;

  @Column({ type: 'varchar', length: 45, nullable: true })
  ip: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
