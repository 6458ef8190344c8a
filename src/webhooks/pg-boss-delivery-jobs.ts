import PgBoss from 'pg-boss';
import type { Pool } from 'pg';
import { DeliveriesRepository } from './deliveries.repository';
import { type ClaimedDelivery, type DeliveryClaimOptions, DeliveryJobs } from './delivery-jobs';

const QUEUE = 'webhook-delivery';
/** pg_advisory_lock key for setting pg-boss up (any constant no other lock of this app uses). */
const SETUP_LOCK = 7_460_211_903;

export interface PgBossDeliveryJobsOptions {
  maxAttempts: number;
  backoffBaseMs: number;
  leaseMs: number;
}

/**
 * PostgreSQL's queue: pg-boss (in its own `pgboss` schema, over the app's connection pool).
 * One job a delivery; pg-boss owns claiming across instances (SKIP LOCKED), retries with
 * exponential backoff, and expiry of a job whose instance died mid-attempt, which it retries.
 * The worker still claims the delivery row for the attempt, so a duplicate job (the start-up
 * sweep below, a replay) finds nothing to do.
 */
export class PgBossDeliveryJobs extends DeliveryJobs {
  private readonly boss: PgBoss;

  constructor(
    private readonly pool: Pool,
    private readonly deliveries: DeliveriesRepository,
    private readonly options: PgBossDeliveryJobsOptions,
  ) {
    super();
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) },
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: 120,
    });
    // pg-boss reports its own background failures (a maintenance run during a database restart) as events.
    this.boss.on('error', () => undefined);
  }

  async start(): Promise<void> {
    // Instances starting together on a fresh database would deadlock creating pg-boss's schema
    // and queue partition: one at a time, under a session advisory lock.
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK]);
      await this.boss.start();
      if (!(await this.boss.getQueue(QUEUE))) {
        await this.boss.createQueue(QUEUE, {
          name: QUEUE,
          retryLimit: this.options.maxAttempts - 1,
          retryDelay: Math.max(0, Math.round(this.options.backoffBaseMs / 1000)),
          retryBackoff: true,
          expireInSeconds: Math.ceil(this.options.leaseMs / 1000),
        });
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK]).catch(() => undefined);
      client.release();
    }
    // A delivery stored by an instance that stopped before it sent the job: queued again (the
    // attempt's row claim makes a duplicate harmless).
    await this.enqueue(await this.deliveries.unfinishedIds());
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  async enqueue(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    // One statement for the lot (the start-up sweep may queue many).
    await this.boss.insert(deliveryIds.map((deliveryId) => ({ name: QUEUE, data: { deliveryId } })));
  }

  async claim({ now, leaseMs }: DeliveryClaimOptions): Promise<ClaimedDelivery | null> {
    for (;;) {
      const [job] = await this.boss.fetch<{ deliveryId: string }>(QUEUE, { batchSize: 1, includeMetadata: true });
      if (!job) return null;
      const delivery = await this.deliveries.claimById(job.data.deliveryId, now, leaseMs);
      if (!delivery) {
        // Already attempted, finished, or not due: this job has nothing left to do.
        await this.boss.complete(QUEUE, job.id);
        continue;
      }
      return {
        delivery,
        lastAttempt: job.retryCount >= job.retryLimit,
        done: () => this.boss.complete(QUEUE, job.id),
        retry: () => this.boss.fail(QUEUE, job.id),
      };
    }
  }
}
