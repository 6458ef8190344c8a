import type { DataSource, EntityManager } from 'typeorm';
import { SessionEntity } from './entities/session.entity';

/** Every query on sessions; a plain class so the operator CLI can issue sessions too. */
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SessionEntity);
  }

  create(userId: string, expiresAt: Date, manager?: EntityManager): Promise<SessionEntity> {
    const repo = this.repo(manager);
    return repo.save(repo.create({ userId, expiresAt, revokedAt: null }));
  }

  /** The session with its user, in one query; null when unknown. */
  findWithUser(id: string): Promise<SessionEntity | null> {
    return this.repo().findOne({ where: { id }, relations: { user: true } });
  }

  /** Revokes every live session of the user but one. */
  async revokeOthers(userId: string, keepId: string, at: Date, manager?: EntityManager): Promise<void> {
    await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('user_id = :userId AND id <> :keepId AND revoked_at IS NULL', { userId, keepId })
      .execute();
  }

  /** The session's holder proved it was them again (a step-up). */
  async markVerified(id: string, at: Date): Promise<void> {
    await this.repo().update({ id }, { verifiedAt: at });
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.repo().createQueryBuilder().update().set({ revokedAt: at }).where('id = :id AND revoked_at IS NULL', { id }).execute();
  }
}
