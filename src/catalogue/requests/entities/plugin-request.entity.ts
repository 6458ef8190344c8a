import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { PluginEntity } from '../../plugins/entities/plugin.entity';
import { UserEntity } from '../../../platform/users/entities/user.entity';

export const REQUEST_STATUSES = ['open', 'fulfilled', 'closed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A wishlist entry: a plugin someone would like to exist, with its vote count. */
@Entity('plugin_request')
@Check('ck_plugin_request_status', `"status" IN ('open', 'fulfilled', 'closed')`)
@Check('ck_plugin_request_votes', '"votes" >= 0')
@Index('idx_plugin_request_status_votes', ['status', 'votes', 'createdAt'])
@Index('idx_plugin_request_status_created', ['status', 'createdAt'])
export class PluginRequestEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  kind: string | null;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: RequestStatus;

  /** The number of rows in plugin_request_vote for this request, kept in the same transaction as each vote. */
  @Column({ type: 'integer', default: 0 })
  votes: number;

  /** The plugin that fulfilled it. */
  @Column({ name: 'plugin_id', type: 'uuid', nullable: true })
  pluginId: string | null;

  @ManyToOne(() => PluginEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity | null;

  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by' })
  creator?: UserEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
