import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';
import { PluginRequestEntity } from './plugin-request.entity';

/** One user's vote on one request; the primary key makes it one vote a user. */
@Entity('plugin_request_vote')
@Index('idx_plugin_request_vote_user', ['userId'])
export class PluginRequestVoteEntity {
  @PrimaryColumn({ name: 'request_id', type: 'uuid' })
  requestId: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => PluginRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'request_id' })
  request?: PluginRequestEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
