import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ReleaseEntity } from './entities/release.entity';

export type NewRelease = Omit<ReleaseEntity, 'id' | 'createdAt' | 'plugin' | 'yankedAt' | 'yankReason'>;

/** Every query on releases. */
export class ReleasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ReleaseEntity);
  }

  findByVersionKey(pluginId: string, versionKey: string, manager?: EntityManager): Promise<ReleaseEntity | null> {
    return this.repo(manager).findOneBy({ pluginId, versionKey });
  }

  listForPlugin(pluginId: string, manager?: EntityManager): Promise<ReleaseEntity[]> {
    return this.repo(manager).find({ where: { pluginId } });
  }

  async insert(release: NewRelease, manager: EntityManager): Promise<ReleaseEntity> {
    const repo = this.repo(manager);
    const result = await repo.insert(release as QueryDeepPartialEntity<ReleaseEntity>);
    return (await repo.findOneBy({ id: result.identifiers[0].id as string }))!;
  }

  async setYanked(id: string, yankedAt: Date | null, reason: string | null, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { yankedAt, yankReason: reason });
  }
}
