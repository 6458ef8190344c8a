import type { DataSource, EntityManager } from 'typeorm';
import { TrustedPublisherEntity } from './entities/trusted-publisher.entity';

export type NewTrustedPublisher = Omit<TrustedPublisherEntity, 'id' | 'createdAt' | 'plugin' | 'creator'>;

/** Every query on plugins' trusted publisher configurations. */
export class TrustedPublishersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(TrustedPublisherEntity);
  }

  listForPlugin(pluginId: string): Promise<TrustedPublisherEntity[]> {
    return this.repo().find({ where: { pluginId }, order: { createdAt: 'ASC' } });
  }

  countForPlugin(pluginId: string, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ pluginId });
  }

  findForPlugin(id: string, pluginId: string): Promise<TrustedPublisherEntity | null> {
    return this.repo().findOneBy({ id, pluginId });
  }

  async insert(row: NewTrustedPublisher, manager: EntityManager): Promise<TrustedPublisherEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create(row));
    return (await repo.findOneBy({ id: saved.id }))!;
  }

  async delete(id: string, manager: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** The configurations naming this repository (by immutable id) on this instance, with their plugin and creator, oldest first. */
  forRepository(forge: string, repositoryId: string): Promise<TrustedPublisherEntity[]> {
    return this.repo()
      .createQueryBuilder('t')
      .innerJoinAndSelect('t.plugin', 'p')
      .innerJoinAndSelect('t.creator', 'u')
      .where('t.forge = :forge AND t.repository_id = :repositoryId', { forge, repositoryId })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
  }
}
