import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../../../platform/users/entities/user.entity';

/** A WebAuthn credential (passkey) a user registered: its id and public key, never a secret. */
@Entity('passkey_credential')
@Index('uq_passkey_credential_id', ['credentialId'], { unique: true })
@Index('idx_passkey_credential_user', ['userId'])
export class PasskeyCredentialEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** The authenticator's credential id, base64url. */
  @Column({ name: 'credential_id', type: 'varchar', length: 1400 })
  credentialId: string;

  /** The COSE public key the authenticator attested. */
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey: Buffer;

  /** The signature counter last seen (0 for authenticators that keep none). */
  @Column({
    name: 'sign_count',
    type: 'bigint',
    default: 0,
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  signCount: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  transports: string[];

  /** The user's own label for it ("Laptop"). */
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** `singleDevice` or `multiDevice` (synced passkeys). */
  @Column({ name: 'device_type', type: 'varchar', length: 20 })
  deviceType: string;

  @Column({ name: 'backed_up', type: 'boolean', default: false })
  backedUp: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
