import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type ChallengePurpose = 'registration' | 'authentication';

/**
 * A WebAuthn challenge handed out and not yet answered. Only its SHA-256 is kept; answering
 * deletes the row, so each challenge is good for one ceremony, on any instance.
 */
@Entity('webauthn_challenge')
@Index('idx_webauthn_challenge_expires', ['expiresAt'])
export class WebAuthnChallengeEntity {
  @PrimaryColumn({ name: 'challenge_sha256', type: 'bytea' })
  challengeSha256: Buffer;

  @Column({ type: 'varchar', length: 20 })
  purpose: ChallengePurpose;

  /** The signed-in user a registration challenge was made for; null for a sign-in. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
