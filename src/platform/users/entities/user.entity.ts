import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type UserRole = 'user' | 'admin';

/**
 * A person, keyed by (forge instance, the provider's immutable numeric id), never by login:
 * logins can be renamed and re-registered. Users made by the operator CLI or the install wizard
 * belong to the instance `local` and have no provider id.
 */
@Entity('user_account')
@Index('uq_user_account_provider', ['instance', 'providerUserId'], { unique: true, where: '"provider_user_id" IS NOT NULL' })
@Index('uq_user_account_local_login', ['login'], { unique: true, where: `"instance" = 'local'` })
@Index('idx_user_account_login', ['login'])
/** The admins (the subscription fan-out's operational events). */
@Index('idx_user_account_admin', ['id'], { where: `"role" = 'admin'` })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 40 })
  instance: string;

  @Column({ name: 'provider_user_id', type: 'varchar', length: 64, nullable: true })
  providerUserId: string | null;

  @Column({ type: 'varchar', length: 100 })
  login: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ name: 'avatar_url', type: 'varchar', length: 500, nullable: true })
  avatarUrl: string | null;

  @Column({ type: 'varchar', length: 10, default: 'user' })
  role: UserRole;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** The provider access token, sealed with KEY_ENCRYPTION_KEY; never selected by default. */
  @Column({ name: 'provider_token_sealed', type: 'bytea', nullable: true, select: false })
  providerTokenSealed: Buffer | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
