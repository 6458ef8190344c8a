import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PluginEntity } from '../../../catalogue/plugins/entities/plugin.entity';
import { UserEntity } from '../../../platform/users/entities/user.entity';

/**
 * A CI job allowed to publish a plugin with no stored secret: its forge instance, the repository
 * by immutable id and by path, and optional narrowing claims. Short-lived tokens minted from it
 * belong to the owner who added it, so they lapse when that owner stops owning the plugin.
 */
@Entity('trusted_publisher')
@Index('idx_trusted_publisher_repository', ['forge', 'repositoryId'])
@Index('idx_trusted_publisher_plugin', ['pluginId'])
export class TrustedPublisherEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginId: string;

  @ManyToOne(() => PluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_id' })
  plugin?: PluginEntity;

  /** The forge instance's name in FORGES. */
  @Column({ type: 'varchar', length: 40 })
  forge: string;

  @Column({ name: 'repository_id', type: 'varchar', length: 64 })
  repositoryId: string;

  @Column({ name: 'repository_path', type: 'varchar', length: 512 })
  repositoryPath: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  workflow: string | null;

  @Column({ name: 'ref_pattern', type: 'varchar', length: 255, nullable: true })
  refPattern: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  environment: string | null;

  /** Whether tokens minted from it may also yank (`yank:<slug>`). */
  @Column({ name: 'allow_yank', type: 'boolean', default: false })
  allowYank: boolean;

  @Column({ name: 'created_by', type: 'uuid' })
  createdBy: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'created_by' })
  creator?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
