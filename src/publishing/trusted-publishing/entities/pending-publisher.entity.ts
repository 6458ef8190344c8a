import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';

/** `active` claims its slug at the first matching push; `displaced` lost its repository to the repository owner's registration and claims nothing. */
export const PENDING_PUBLISHER_STATUSES = ['active', 'displaced'] as const;
export type PendingPublisherStatus = (typeof PENDING_PUBLISHER_STATUSES)[number];

/**
 * A trusted publisher for a slug that does not exist yet: the first matching OIDC push claims the
 * slug for `userId`, anchored to the repository, and the entry becomes the plugin's trusted
 * publisher. One active entry per slug and one per repository, as a claim would be; a displaced
 * entry stays, holding neither, so its user reads why in their list until they remove it.
 */
@Entity('pending_publisher')
@Index('uq_pending_publisher_slug', ['slug'], { unique: true, where: `"status" = 'active'` })
@Index('uq_pending_publisher_repository', ['forge', 'repositoryId'], { unique: true, where: `"status" = 'active'` })
@Index('idx_pending_publisher_user', ['userId'])
@Check('ck_pending_publisher_status', `"status" IN ('active', 'displaced')`)
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

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: PendingPublisherStatus;

  /** Why the entry is not active, for its user. */
  @Column({ name: 'status_reason', type: 'varchar', length: 500, nullable: true })
  statusReason: string | null;

  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
