import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An exchanged OIDC ID token, by SHA-256 of its issuer and `jti`, kept until it expires so the
 * same token is refused a second time (replay). Rows past `expires_at` are deleted as new ones come.
 */
@Entity('oidc_used_token')
@Index('idx_oidc_used_token_expires', ['expiresAt'])
export class UsedOidcTokenEntity {
  @PrimaryColumn({ name: 'key_sha256', type: 'varchar', length: 64 })
  keySha256: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
