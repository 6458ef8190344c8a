import { Inject, Injectable, Logger } from '@nestjs/common';
import { BackgroundLoop, loopFailureLog } from '../../common/background-loop';
import { Clock } from '../../common/clock';
import { startHeartbeat } from '../../common/heartbeat';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { DeliveriesRepository } from './deliveries.repository';
import { type ClaimedDelivery, DeliveryJobs } from './delivery-jobs';
import { DeliveryProcessor } from './delivery-processor';

export interface DeliveryWorkerOptions {
  /** Whether the server runs the worker on its own (tests drive `runOnce` instead). */
  autoStart: boolean;
  /** How often an idle worker looks for due deliveries (retries, other instances' work). */
  pollIntervalMs: number;
  /**
   * How long a claim lasts without a heartbeat (renewed every third of it while the attempt
   * runs): a crashed instance's delivery is taken up again after about this long.
   */
  leaseMs: number;
  /** Attempts before a delivery that keeps hitting network trouble is failed. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_DELIVERY_WORKER_OPTIONS: DeliveryWorkerOptions = {
  autoStart: true,
  pollIntervalMs: 5_000,
  leaseMs: 60_000,
  maxAttempts: 6,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
};

export const DELIVERY_WORKER_OPTIONS = Symbol('DELIVERY_WORKER_OPTIONS');

const SWEEP_INTERVAL_MS = 60_000;
/** A due delivery's job is fetched within seconds; one this late has none. */
const OVERDUE_MS = 30_000;
const SWEEP_BATCH = 1_000;

/** A delivery the database's absence interrupted is tried again this soon (by then it is back, or the retry's own write fails and the lease brings it back). */
const DATABASE_RETRY_MS = 5_000;

/**
 * Ingests stored deliveries in the background of the server: at start (picking up whatever a
 * stopped or crashed instance left), when a delivery arrives (`enqueue`) and every poll interval.
 * Jobs come from DeliveryJobs: pg-boss on PostgreSQL (several instances share the work), the
 * delivery table itself on the embedded database.
 */
@Injectable()
export class DeliveryWorker {
  private readonly logger = new Logger('Webhooks');
  private readonly loop: BackgroundLoop;
  /**
   * A job may be lost: a delivery stored whose job could not be queued (the database went away in
   * between), a job fetched whose claim failed (pg-boss holds it active until it expires), a retry
   * that could not be scheduled. After a failed pass, the next one that gets through queues every
   * due delivery again, and once a minute a pass queues those overdue by OVERDUE_MS; a duplicate
   * job finds the delivery claimed or finished and does nothing.
   */
  private sweepDue = false;
  private lastSweepAt = 0;

  constructor(
    @Inject(DELIVERY_WORKER_OPTIONS) readonly options: DeliveryWorkerOptions,
    private readonly deliveries: DeliveriesRepository,
    private readonly processor: DeliveryProcessor,
    private readonly jobs: DeliveryJobs,
    private readonly responses: ResponseCache,
    private readonly clock: Clock,
  ) {
    // Everything the next pass needs is in the database.
    this.loop = new BackgroundLoop(
      () => this.runOnce(),
      options.pollIntervalMs,
      loopFailureLog(this.logger, 'processing webhook deliveries'),
    );
  }

  /** Starts the queue (resuming unfinished deliveries) and, unless tests drive it, the polling. */
  async start(): Promise<void> {
    await this.jobs.start();
    if (this.options.autoStart) this.loop.start();
  }

  /**
   * Stored deliveries to attempt now: queued, then a pass started. A delivery is stored before
   * this runs, so a failure here loses nothing: the next pass that gets through sweeps it up.
   */
  async enqueue(deliveryIds: readonly string[]): Promise<void> {
    try {
      await this.jobs.enqueue(deliveryIds);
    } catch (error) {
      this.sweepDue = true;
      throw error;
    } finally {
      this.loop.kick();
    }
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.jobs.stop();
  }

  /** Processes every due delivery, one at a time; resolves with how many were attempted. */
  async runOnce(): Promise<number> {
    try {
      return await this.attemptDue();
    } catch (error) {
      this.sweepDue = true;
      throw error;
    }
  }

  private async attemptDue(): Promise<number> {
    let attempted = 0;
    await this.sweepLostJobs();
    await this.jobs.resumeLapsed(this.clock.now());
    while (!this.loop.isStopping) {
      const claimed = await this.jobs.claim({
        now: this.clock.now(),
        leaseMs: this.options.leaseMs,
        maxAttempts: this.options.maxAttempts,
      });
      if (!claimed) break;
      attempted += 1;
      await this.process(claimed);
    }
    return attempted;
  }

  private async sweepLostJobs(): Promise<void> {
    const now = this.clock.nowMs();
    if (!this.sweepDue && now - this.lastSweepAt < SWEEP_INTERVAL_MS) return;
    const before = new Date(this.sweepDue ? now : now - OVERDUE_MS);
    await this.jobs.enqueue(await this.deliveries.queuedDueIds(before, SWEEP_BATCH));
    this.sweepDue = false;
    this.lastSweepAt = now;
  }

  private async process(claimed: ClaimedDelivery): Promise<void> {
    const { delivery } = claimed;
    const { leaseMs } = this.options;
    const heartbeat = startHeartbeat(
      () => this.deliveries.renewLease(delivery.id, new Date(this.clock.now().getTime() + leaseMs)),
      Math.max(1, Math.floor(leaseMs / 3)),
      (error) => this.logger.warn(`renewing the claim on delivery ${delivery.id} failed: ${error.message}`),
    );
    let result;
    try {
      result = await this.processor.attempt(delivery);
    } finally {
      heartbeat.stop();
    }
    const now = this.clock.now();
    if (result.kind === 'retry' && !claimed.lastAttempt) {
      const backoff = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (delivery.attempts - 1));
      const delay = result.soon ? Math.min(backoff, DATABASE_RETRY_MS) : backoff;
      await this.deliveries.retryLater(delivery.id, new Date(now.getTime() + delay), result.reason, result.detail);
      await claimed.retry(delay);
      this.logger.warn(
        `delivery ${delivery.id} (${delivery.tag}) hit ${result.reason}; attempt ${delivery.attempts + 1} in ${Math.round(delay / 1000)} s`,
      );
      return;
    }
    const outcome =
      result.kind === 'done'
        ? result.outcome
        : {
            status: 'failed' as const,
            reason: result.reason,
            detail: `gave up after ${delivery.attempts} attempts: ${result.detail}`,
            violations: null,
            version: null,
          };
    // Ingested in the background, where no API write empties the response cache: done here,
    // before the delivery says it succeeded.
    if (outcome.status === 'succeeded') await this.responses.invalidate();
    await this.deliveries.finish(delivery.id, outcome, now);
    await claimed.done();
    if (outcome.status === 'failed') {
      await this.processor.auditFailure(delivery, outcome, await this.processor.slugOf(delivery.pluginId));
      this.logger.warn(`delivery ${delivery.id} (${delivery.tag}) failed: ${outcome.reason}`);
    }
  }
}
