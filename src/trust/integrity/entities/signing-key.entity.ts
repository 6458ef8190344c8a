import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { SigningKeyState } from '../signing-key.types';

/**
 * One Ed25519 release-signing key
 * (docs/decisions.md#releases-are-signed-with-ed25519-over-canonical-json). The private key is kept
 * only as AES-256-GCM ciphertext under `KEY_ENCRYPTION_KEY`, with the kid as additional
 * authenticated data, and is wiped when the key retires. The partial unique indexes make "at most
 * one current and one previous key" a database fact that every server instance and the operator CLI
 * share. Draining keys may be several: a rotation never waits for an earlier drain to finish.
 *
 * The ciphertext columns are never selected by default: only the code that signs asks for them.
 */
@Entity('signing_key')
@Index('uq_signing_key_current', ['state'], { unique: true, where: `"state" = 'current'` })
@Index('uq_signing_key_previous', ['state'], { unique: true, where: `"state" = 'previous'` })
@Check('chk_signing_key_state', `"state" IN ('current', 'previous', 'draining', 'retired')`)
@Check(
  'chk_signing_key_private_key',
  `"state" = 'retired' OR ("private_key_ciphertext" IS NOT NULL AND "private_key_iv" IS NOT NULL AND "private_key_tag" IS NOT NULL)`,
)
@Check('chk_signing_key_resigned_count', `"resigned_count" >= 0`)
export class SigningKeyEntity {
  /** RFC 7638 JWK thumbprint of the public key (43 base64url characters). */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid: string;

  @Column({ type: 'varchar', length: 16 })
  state: SigningKeyState;

  /** The public key: base64url of the 32 raw Ed25519 bytes (the JWK `x`). Kept for ever: re-signing verifies with it. */
  @Column({ name: 'public_x', type: 'varchar', length: 64 })
  publicX: string;

  /** AES-256-GCM ciphertext of the PKCS#8 DER private key; null once retired. */
  @Column({ name: 'private_key_ciphertext', type: 'bytea', nullable: true, select: false })
  privateKeyCiphertext?: Buffer | null;

  /** The 12-byte GCM nonce, random per encryption. */
  @Column({ name: 'private_key_iv', type: 'bytea', nullable: true, select: false })
  privateKeyIv?: Buffer | null;

  /** The 16-byte GCM authentication tag. */
  @Column({ name: 'private_key_tag', type: 'bytea', nullable: true, select: false })
  privateKeyTag?: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When a rotation made this key `previous`. */
  @Column({ name: 'demoted_at', type: 'timestamptz', nullable: true })
  demotedAt: Date | null;

  /** When a rotation displaced this key from `previous`, leaving its releases to be re-signed. */
  @Column({ name: 'draining_at', type: 'timestamptz', nullable: true })
  drainingAt: Date | null;

  /**
   * When the last release signed by this draining key was re-signed; the key leaves the key set a
   * grace period later (release responses may be cached). Cleared if another one turns up.
   */
  @Column({ name: 'drained_at', type: 'timestamptz', nullable: true })
  drainedAt: Date | null;

  /** How many releases were re-signed away from this key (kept across crashes and instances). */
  @Column({ name: 'resigned_count', type: 'integer', default: 0 })
  resignedCount: number;

  /** When the key left the key set. */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt: Date | null;
}
