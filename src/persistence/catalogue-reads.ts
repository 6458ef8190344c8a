import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { Clock } from '../common/clock';
import { databaseUnavailability } from '../common/errors/database-unavailable';
import { OccasionalWarning } from '../common/logging/occasional-warning';
import { ReadReplicas, type ReplicaHandle } from './read-replicas';

/**
 * Runs anonymous catalogue reads on a read replica (DATABASE_READ_URLS), everything else stays on
 * the primary. Only reads that may be a moment stale belong here: a replica lags the primary, so
 * anything that must see what this request or its caller just wrote (publish, admin, tokens,
 * sessions) passes no manager and reads the primary.
 *
 * Without replicas (embedded or a single server) `work` gets the ordinary manager. A replica that
 * is down (at start too) gets no reads until the probe sees it answer again (read-replicas.ts);
 * one that fails a read because it became unreachable is marked down and the read runs again on
 * the primary (a read is safe to repeat): the catalogue stays up with the primary's load rather
 * than failing while a replica restarts.
 */
@Injectable()
export class CatalogueReads {
  private readonly fallbacks: OccasionalWarning;

  constructor(
    private readonly dataSource: DataSource,
    private readonly replicas: ReadReplicas,
    clock: Clock,
  ) {
    const log = new Logger('CatalogueReads');
    this.fallbacks = new OccasionalWarning(
      (message) => log.warn(message),
      () => clock.nowMs(),
    );
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const replica = this.replicas.pick();
    if (!replica) return work(this.dataSource.manager);
    const runner = await this.connected(replica);
    if (!runner) return work(this.dataSource.manager);
    try {
      return await work(runner.manager);
    } catch (error) {
      // A replica that is there but slow keeps its read's failure: repeating it would double the load.
      if (databaseUnavailability(error) !== 'lost') throw error;
      this.unreachable(replica, error);
      return work(this.dataSource.manager);
    } finally {
      await runner.release().catch(() => undefined);
    }
  }

  private async connected(replica: ReplicaHandle): Promise<QueryRunner | null> {
    const runner = replica.dataSource.createQueryRunner();
    try {
      await runner.connect();
      return runner;
    } catch (error) {
      await runner.release().catch(() => undefined);
      this.unreachable(replica, error);
      return null;
    }
  }

  private unreachable(replica: ReplicaHandle, error: unknown): void {
    this.replicas.markDown(replica, error);
    this.fallbacks.say(
      `read replica ${replica.index} did not answer (${error instanceof Error ? error.message : String(error)}); catalogue reads use the primary`,
    );
  }
}
