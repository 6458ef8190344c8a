import type { DataSource, EntityManager } from 'typeorm';
import { SignInLinkEntity } from './entities/sign-in-link.entity';

export type LinkUse = { outcome: 'used'; userId: string } | { outcome: 'already-used' | 'expired' | 'unknown' };

/** Every query on sign-in links; a plain class so the CLI issues links without Nest. */
export class SignInLinksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SignInLinkEntity);
  }

  /** Stores a new link, and forgets links that expired over a day ago (their reuse page says "unknown" then). */
  async create(userId: string, tokenSha256: Buffer, expiresAt: Date, now: Date, manager?: EntityManager): Promise<void> {
    const repo = this.repo(manager);
    await repo
      .createQueryBuilder()
      .delete()
      .where('expires_at < :before', { before: new Date(now.getTime() - 24 * 3600 * 1000) })
      .execute();
    await repo.insert({ tokenSha256, userId, expiresAt, usedAt: null });
  }

  /**
   * Uses the link once: one statement marks it used only while it is unused and unexpired, so
   * two racing uses sign in once. When it does not, says why (used, expired or unknown).
   */
  async use(tokenSha256: Buffer, now: Date): Promise<LinkUse> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      `UPDATE sign_in_link SET used_at = $2 WHERE token_sha256 = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
      [tokenSha256, now],
    );
    // pg answers an UPDATE ... RETURNING as [rows, count]; PGlite's socket does the same.
    const used = Array.isArray(rows[0]) ? (rows[0] as { user_id: string }[]) : rows;
    if (used.length > 0) return { outcome: 'used', userId: used[0].user_id };
    const row = await this.repo().findOneBy({ tokenSha256 });
    if (!row) return { outcome: 'unknown' };
    return { outcome: row.usedAt ? 'already-used' : 'expired' };
  }
}
