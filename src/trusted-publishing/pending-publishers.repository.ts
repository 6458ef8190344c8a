import type { DataSource, EntityManager } from 'typeorm';
import { PendingPublisherEntity } from './entities/pending-publisher.entity';

export type NewPendingPublisher = Omit<PendingPublisherEntity, 'id' | 'createdAt' | 'user'>;

/** Every query on pending publishers (trusted publishers of slugs not claimed yet). */
export class PendingPublishersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PendingPublisherEntity);
  }

  listForUser(userId: string): Promise<PendingPublisherEntity[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'ASC' } });
  }

  countForUser(userId: string): Promise<number> {
    return this.repo().countBy({ userId });
  }

  findForUser(id: string, userId: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOneBy({ id, userId });
  }

  findById(id: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOneBy({ id });
  }

  /** Whether a pending entry already holds the slug or the repository. */
  async isTaken(slug: string, forge: string, repositoryId: string): Promise<boolean> {
    return (await this.repo().count({ where: [{ slug }, { forge, repositoryId }] })) > 0;
  }

  async insert(row: NewPendingPublisher, manager: EntityManager): Promise<PendingPublisherEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create(row));
    return (await repo.findOneBy({ id: saved.id }))!;
  }

  /** Deletes the entry; false when it was gone already (removed, or consumed by a concurrent claim). */
  async delete(id: string, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** The entry naming this repository (by immutable id) on this instance, with its user, if any. */
  forRepository(forge: string, repositoryId: string): Promise<PendingPublisherEntity | null> {
    return this.repo().findOne({ where: { forge, repositoryId }, relations: { user: true } });
  }
}
