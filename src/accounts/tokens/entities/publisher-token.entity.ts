import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';

/** Where a short-lived token of trusted publishing came from: the CI job its OIDC ID token named. */
export interface TrustedTokenOrigin {
  issuer: string;
  /** The forge instance's name. */
  forge: string;
  repository: string;
  repositoryId: string;
  workflow: string | null;
  ref: string | null;
  environment: string | null;
  subject: string | null;
  /** The pending publisher whose slug this token may claim, when one matched. */
  pending: { id: string; slug: string } | null;
}

/** A CI publisher token. Only the SHA-256 of the plaintext is stored; it cannot be recovered. */
@Entity('publisher_token')
@Index('idx_publisher_token_user', ['userId'])
export class PublisherTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 12 })
  prefix: string;

  @Index('uq_publisher_token_hash', { unique: true })
  @Column({ name: 'token_sha256', type: 'bytea', select: false })
  tokenSha256: Buffer;

  @Column({ type: 'jsonb' })
  scopes: string[];

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** Null for a token a user created; the CI identity for one minted by trusted publishing. */
  @Column({ type: 'jsonb', nullable: true })
  trusted: TrustedTokenOrigin | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
