import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { Clock } from '../common/clock';
import { OccasionalWarning } from '../common/logging/occasional-warning';

/**
 * Runs anonymous catalogue reads on a read replica (DATABASE_READ_URLS), everything else stays on
 * the primary. Only reads that may be a moment stale belong here: a replica lags the primary, so
 * anything that must see what this request or its caller just wrote (publish, admin, tokens,
 * sessions) passes no manager and reads the primary.
 *
 * Without replicas (embedded or a single server) `work` gets the ordinary manager. When no replica
 * answers, the read falls back to the primary: the catalogue stays up with the primary's load
 * rather than failing while a replica restarts.
 */
@Injectable()
export class CatalogueReads {
  private readonly fallbacks: OccasionalWarning;

  constructor(
    private readonly dataSource: DataSource,
    clock: Clock,
  ) {
    const log = new Logger('CatalogueReads');
    this.fallbacks = new OccasionalWarning((message) => log.warn(message), () => clock.nowMs());
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.dataSource.driver.isReplicated) return work(this.dataSource.manager);
    const replica = await this.connectedReplica();
    if (!replica) return work(this.dataSource.manager);
    try {
      return await work(replica.manager);
    } finally {
      await replica.release();
    }
  }

  private async connectedReplica(): Promise<QueryRunner | null> {
    const runner = this.dataSource.createQueryRunner('slave');
    try {
      await runner.connect();
      return runner;
    } catch (error) {
      await runner.release().catch(() => undefined);
      this.fallbacks.say(`no read replica answered (${error instanceof Error ? error.message : String(error)}); catalogue reads use the primary`);
      return null;
    }
  }
}
