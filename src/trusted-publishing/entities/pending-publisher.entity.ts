import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../users/entities/user.entity';

/**
 * A trusted publisher for a slug that does not exist yet: the first matching OIDC push claims the
 * slug for `userId`, anchored to the repository, and the entry becomes the plugin's trusted
 * publisher. One per slug and one per repository, as a claim would be.
 */
@Entity('pending_publisher')
@Index('uq_pending_publisher_slug', ['slug'], { unique: true })
@Index('uq_pending_publisher_repository', ['forge', 'repositoryId'], { unique: true })
@Index('idx_pending_publisher_user', ['userId'])
export class PendingPublisherEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 64 })
  slug: string;

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

  /** The claim's anchor: the repository's URL on the instance and its normalized identity. */
  @Column({ name: 'repo_url', type: 'varchar', length: 2048 })
  repoUrl: string;

  @Column({ name: 'repo_identity', type: 'varchar', length: 2048 })
  repoIdentity: string;

  /** Whether the registrant proved admin rights on the repository (as a claim by push would). */
  @Column({ name: 'repo_verified', type: 'boolean', default: false })
  repoVerified: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
