import type { DataSource, EntityManager } from 'typeorm';
import { MirrorFailureEntity } from './entities/mirror-failure.entity';
import { MirrorStateEntity } from './entities/mirror-state.entity';

/** The mirror's own bookkeeping: its place in upstream's feed and the releases it refused. */
export class MirrorRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private state(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(MirrorStateEntity);
  }

  private failures(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(MirrorFailureEntity);
  }

  findState(): Promise<MirrorStateEntity | null> {
    return this.state().findOneBy({ id: 1 });
  }

  /** The cursor to read from for this upstream: null (the beginning) when none, or kept for another upstream. */
  async cursorFor(upstream: string): Promise<string | null> {
    const row = await this.findState();
    return row && row.upstream === upstream ? row.cursor : null;
  }

  /** Moves the cursor, in the transaction that applied the change it follows. */
  async saveCursor(upstream: string, cursor: string, manager: EntityManager): Promise<void> {
    await this.state(manager).upsert({ id: 1, upstream, cursor }, ['id']);
  }

  async savePoll(upstream: string, at: Date, error: string | null): Promise<void> {
    const row = await this.findState();
    if (row && row.upstream === upstream) await this.state().update({ id: 1 }, { lastPollAt: at, lastError: error });
    else await this.state().upsert({ id: 1, upstream, cursor: null, lastPollAt: at, lastError: error }, ['id']);
  }

  async addFailure(failure: Omit<MirrorFailureEntity, 'id'>, manager: EntityManager): Promise<void> {
    await this.failures(manager).insert(failure);
  }

  /** The newest refusals first. */
  recentFailures(limit: number): Promise<MirrorFailureEntity[]> {
    return this.failures().find({ order: { failedAt: 'DESC' }, take: limit });
  }

  countFailures(): Promise<number> {
    return this.failures().count();
  }
}
