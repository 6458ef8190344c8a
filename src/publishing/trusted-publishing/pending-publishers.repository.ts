import type { DataSource, EntityManager } from 'typeorm';
import { PendingPublisherEntity } from './entities/pending-publisher.entity';

export type NewPendingPublisher = Omit<PendingPublisherEntity, 'id' | 'createdAt' | 'user' | 'status' | 'statusReason' | 'statusChangedAt'>;

/** Every query on pending publishers (trusted publishers of slugs not claimed yet). */
export class PendingPublishersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PendingPublisherEntity);
  }

  /** The user's entries, displaced ones included (they say why they claim nothing). */
  listForUser(userId: string): Promise<PendingPublisherEntity[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'ASC' } });
  }

  /** Runs `work` in one transaction with the user's row locked, so the per-user cap holds under races. */
  withUserLocked<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM user_account WHERE id = $1 FOR UPDATE', [userId]);
      return work(manager);
    });
  }

  countActiveForUser(userId: string, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ userId, status: 'active' });
  }

  findForUser(id: string, userId: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOneBy({ id, userId });
  }

  findActiveById(id: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOneBy({ id, status: 'active' });
  }

  /** The active entries holding the slug and the repository (the same entry, two, or none). */
  async holders(
    slug: string,
    forge: string,
    repositoryId: string,
  ): Promise<{ slug: PendingPublisherEntity | null; repository: PendingPublisherEntity | null }> {
    const rows = await this.repo().find({
      where: [
        { slug, status: 'active' },
        { forge, repositoryId, status: 'active' },
      ],
    });
    return {
      slug: rows.find((row) => row.slug === slug) ?? null,
      repository: rows.find((row) => row.forge === forge && row.repositoryId === repositoryId) ?? null,
    };
  }

  async insert(row: NewPendingPublisher, manager: EntityManager): Promise<PendingPublisherEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create({ ...row, status: 'active' }));
    return (await repo.findOneBy({ id: saved.id }))!;
  }

  /** Deletes the entry, whatever its status; false when it was gone already. */
  async delete(id: string, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Deletes the entry as its claim uses it; false when it was used, removed or displaced meanwhile. */
  async consume(id: string, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).delete({ id, status: 'active' });
    return (result.affected ?? 0) > 0;
  }

  /** Marks an active entry displaced, with why; false when it was no longer active. */
  async displace(id: string, reason: string, at: Date, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id, status: 'active' },
      { status: 'displaced', statusReason: reason, statusChangedAt: at },
    );
    return (result.affected ?? 0) > 0;
  }

  /** The active entry naming this repository (by immutable id) on this instance, with its user, if any. */
  forRepository(forge: string, repositoryId: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOne({ where: { forge, repositoryId, status: 'active' }, relations: { user: true } });
  }
}
