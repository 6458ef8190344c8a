import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';

/**
 * A one-time sign-in link an operator printed (`registry users sign-in-link`). Only the SHA-256
 * of its token is kept; a used link keeps its row (with `used_at`) so a second use is told apart.
 */
@Entity('sign_in_link')
@Index('idx_sign_in_link_user', ['userId'])
@Index('idx_sign_in_link_expires', ['expiresAt'])
export class SignInLinkEntity {
  @PrimaryColumn({ name: 'token_sha256', type: 'bytea' })
  tokenSha256: Buffer;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
