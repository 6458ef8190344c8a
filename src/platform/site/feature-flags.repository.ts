import type { DataSource, EntityManager } from 'typeorm';
import { FeatureFlagEntity } from './entities/feature-flag.entity';

/** Every query on stored feature-flag settings. */
export class FeatureFlagsRepository {
  constructor(private readonly dataSource: DataSource) {}

  all(manager?: EntityManager): Promise<FeatureFlagEntity[]> {
    return (manager ?? this.dataSource.manager).getRepository(FeatureFlagEntity).find({ order: { name: 'ASC' } });
  }

  /** Runs `work` in a transaction that holds every other flag change back until it commits. */
  withFlagsLocked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE feature_flag IN SHARE ROW EXCLUSIVE MODE');
      return work(manager);
    });
  }

  async set(flags: Readonly<Record<string, boolean>>, manager: EntityManager): Promise<void> {
    const rows = Object.entries(flags).map(([name, enabled]) => ({ name, enabled }));
    if (rows.length === 0) return;
    await manager.getRepository(FeatureFlagEntity).upsert(rows, { conflictPaths: ['name'] });
  }
}
