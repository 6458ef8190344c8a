import PgBoss from 'pg-boss';
import type { Pool } from 'pg';
import { DeliveriesRepository } from './deliveries.repository';
import { type ClaimedDelivery, type DeliveryClaimOptions, DeliveryJobs } from './delivery-jobs';

const QUEUE = 'webhook-delivery';
/** pg_advisory_lock key for setting pg-boss up (any constant no other lock of this app uses). */
const SETUP_LOCK = 7_460_211_903;
/**
 * When pg-boss retries a job still active (its instance died): a backstop only, since the
 * delivery's own lease (renewed by the attempt's heartbeat) lapses long before and
 * `resumeLapsed` queues it again; it must outlast the longest live attempt.
 */
const JOB_EXPIRY_S = 20 * 60;

export interface PgBossDeliveryJobsOptions {
  maxAttempts: number;
  backoffBaseMs: number;
}

/**
 * PostgreSQL's queue: pg-boss (in its own `pgboss` schema, over the app's connection pool).
 * One job a delivery; pg-boss owns claiming across instances (SKIP LOCKED) and retries with
 * exponential backoff. A delivery whose instance died mid-attempt is queued again once its lease
 * lapses (`resumeLapsed`).
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
          expireInSeconds: JOB_EXPIRY_S,
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

  async resumeLapsed(now: Date): Promise<void> {
    // The dead instance's job stays active in pg-boss until it expires: a new job resumes the
    // delivery now, and the old one finds nothing to do when it comes back.
    await this.enqueue(await this.deliveries.lapsedIds(now));
  }

  /**
   * pg-boss's own retry would wait its queue's delay and back-off, not the worker's (a delivery the
   * database's absence interrupted is due again in seconds): a new job due when the delivery is,
   * and this one done. The row's attempts, not the job's, decide the last attempt.
   */
  private async retryAfter(jobId: string, deliveryId: string, delayMs: number): Promise<void> {
    await this.boss.insert([{ name: QUEUE, data: { deliveryId }, startAfter: new Date(Date.now() + delayMs) }]);
    await this.boss.complete(QUEUE, jobId);
  }

  async claim({ now, leaseMs, maxAttempts }: DeliveryClaimOptions): Promise<ClaimedDelivery | null> {
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
        // A resumed delivery's new job starts counting afresh; the row's attempts do not.
        lastAttempt: job.retryCount >= job.retryLimit || delivery.attempts >= maxAttempts,
        done: () => this.boss.complete(QUEUE, job.id),
        retry: (delayMs) => this.retryAfter(job.id, job.data.deliveryId, delayMs),
      };
    }
  }
}
