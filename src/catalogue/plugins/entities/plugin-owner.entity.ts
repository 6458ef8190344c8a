import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';
import { PluginEntity } from './plugin.entity';

/** Who may publish a plugin: its owners (the first pusher, later transfers). */
@Entity('plugin_owner')
@Index('idx_plugin_owner_user', ['userId'])
export class PluginOwnerEntity {
  @PrimaryColumn({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
