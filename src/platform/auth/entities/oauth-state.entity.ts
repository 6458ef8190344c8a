import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One OAuth `state` handed out by a login redirect and not yet used. Only its SHA-256 is kept:
 * the callback deletes the row to consume it, so a copied state cookie cannot replay a sign-in.
 */
@Entity('oauth_state')
@Index('idx_oauth_state_expires', ['expiresAt'])
export class OAuthStateEntity {
  @PrimaryColumn({ name: 'state_sha256', type: 'bytea' })
  stateSha256: Buffer;

  /** The forge instance whose login issued it; another instance's callback cannot consume it. */
  @Column({ name: 'instance', type: 'varchar', length: 40 })
  instance: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
