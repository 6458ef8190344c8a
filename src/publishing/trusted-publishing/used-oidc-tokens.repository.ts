import type { DataSource, EntityManager } from 'typeorm';
import { UsedOidcTokenEntity } from './entities/used-oidc-token.entity';

/** The replay store of exchanged OIDC ID tokens. */
export class UsedOidcTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the token as used; false when it was used before. Expired rows are dropped first, so
   * the table holds only tokens that could still be presented.
   */
  async markUsed(keySha256: string, expiresAt: Date, now: Date, manager: EntityManager): Promise<boolean> {
    await manager.createQueryBuilder().delete().from(UsedOidcTokenEntity).where('expires_at < :now', { now }).execute();
    const rows: unknown[] = await manager.query(
      'INSERT INTO oidc_used_token (key_sha256, expires_at) VALUES ($1, $2) ON CONFLICT (key_sha256) DO NOTHING RETURNING key_sha256',
      [keySha256, expiresAt],
    );
    return rows.length === 1;
  }
}
