import type { DataSource, EntityManager } from 'typeorm';
import { PublisherTokenEntity, type TrustedTokenOrigin } from './entities/publisher-token.entity';

export interface NewPublisherToken {
  userId: string;
  name: string;
  prefix: string;
  tokenSha256: Buffer;
  scopes: string[];
  expiresAt: Date | null;
  trusted?: TrustedTokenOrigin | null;
}

/** Every query on publisher tokens. The hash column is never selected. */
export class TokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PublisherTokenEntity);
  }

  /** Runs `work` with the owner's row locked, so per-user limits hold under concurrency. */
  withUserLocked<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM user_account WHERE id = $1 FOR UPDATE', [userId]);
      return work(manager);
    });
  }

  /** Tokens the user created that are still active; the short-lived ones of trusted publishing do not count. */
  countActive(userId: string, now: Date, manager: EntityManager): Promise<number> {
    return this.repo(manager)
      .createQueryBuilder('t')
      .where('t.user_id = :userId AND t.trusted IS NULL AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > :now)', {
        userId,
        now,
      })
      .getCount();
  }

  async insert(token: NewPublisherToken, manager: EntityManager): Promise<PublisherTokenEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create({ trusted: null, ...token, revokedAt: null, lastUsedAt: null }));
    return (await repo.findOneBy({ id: saved.id }))!;
  }

  listForUser(userId: string): Promise<PublisherTokenEntity[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  findForUser(id: string, userId: string): Promise<PublisherTokenEntity | null> {
    return this.repo().findOneBy({ id, userId });
  }

  /** The token by the hash of its plaintext, with its owner; a single indexed lookup. */
  findByHashWithUser(hash: Buffer): Promise<PublisherTokenEntity | null> {
    return this.repo().createQueryBuilder('t').innerJoinAndSelect('t.user', 'u').where('t.token_sha256 = :hash', { hash }).getOne();
  }

  /**
   * Whether the token is still usable (not revoked, not expired, its owner not disabled), holding
   * its row until the transaction ends so a revocation waits for the work it would have stopped.
   */
  async isUsableLocked(id: string, now: Date, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM publisher_token t JOIN user_account u ON u.id = t.user_id
       WHERE t.id = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2) AND u.disabled_at IS NULL
       FOR SHARE OF t, u`,
      [id, now],
    );
    return rows.length > 0;
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const result = await this.repo()
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.repo().update({ id }, { lastUsedAt: at });
  }
}
