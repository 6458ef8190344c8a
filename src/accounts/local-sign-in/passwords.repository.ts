import type { DataSource, EntityManager } from 'typeorm';
import { UserPasswordEntity } from './entities/user-password.entity';

/** Every query on password hashes; a plain class so `registry users set-password` uses it too. */
export class PasswordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(UserPasswordEntity);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The stored hash (the one place it is selected), or null when the user has no password. */
  async hashOf(userId: string): Promise<string | null> {
    const row = await this.repo()
      .createQueryBuilder('p')
      .select(['p.userId'])
      .addSelect('p.hash')
      .where('p.user_id = :userId', { userId })
      .getOne();
    return row?.hash ?? null;
  }

  /** When the password was last set, or null when there is none. */
  async updatedAt(userId: string): Promise<Date | null> {
    const row = await this.repo().findOne({ where: { userId }, select: { userId: true, updatedAt: true } });
    return row?.updatedAt ?? null;
  }

  async store(userId: string, hash: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).upsert({ userId, hash }, ['userId']);
  }

  /** Whether there was a password to remove. */
  async remove(userId: string, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).delete({ userId });
    return (result.affected ?? 0) > 0;
  }
}
