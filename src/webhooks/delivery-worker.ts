import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryProcessor } from './delivery-processor';
import type { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export interface DeliveryWorkerOptions {
  /** Whether the server runs the worker on its own (tests drive `runOnce` instead). */
  autoStart: boolean;
  /** How often an idle worker looks for due deliveries (retries, other instances' work). */
  pollIntervalMs: number;
  /** How long a claimed delivery stays claimed; a crashed instance's claims lapse after it. */
  leaseMs: number;
  /** Attempts before a delivery that keeps hitting network trouble is failed. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_DELIVERY_WORKER_OPTIONS: DeliveryWorkerOptions = {
  autoStart: true,
  pollIntervalMs: 5_000,
  leaseMs: 20 * 60_000,
  maxAttempts: 6,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
};

export const DELIVERY_WORKER_OPTIONS = Symbol('DELIVERY_WORKER_OPTIONS');

/**
 * Ingests stored deliveries in the background of the server: at start (picking up whatever a
 * stopped or crashed instance left), when a delivery arrives (`kick`) and every poll interval.
 * The job table is the delivery table itself, claimed with FOR UPDATE SKIP LOCKED, so several
 * instances on one PostgreSQL share the work and the embedded database runs the same code.
 */
@Injectable()
export class DeliveryWorker {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private started = false;
  private stopping = false;

  constructor(
    @Inject(DELIVERY_WORKER_OPTIONS) readonly options: DeliveryWorkerOptions,
    private readonly deliveries: DeliveriesRepository,
    private readonly processor: DeliveryProcessor,
    private readonly clock: Clock,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.kick();
  }

  /** A pass now (or right after the one under way); nothing unless started. */
  kick(): void {
    if (!this.started || this.stopping) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
      this.schedule();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Processes every due delivery, one at a time; resolves with how many were attempted. */
  async runOnce(): Promise<number> {
    let attempted = 0;
    while (!this.stopping) {
      const delivery = await this.deliveries.claimNext(this.clock.now(), this.options.leaseMs);
      if (!delivery) break;
      attempted += 1;
      await this.process(delivery);
    }
    return attempted;
  }

  private async process(delivery: WebhookDeliveryEntity): Promise<void> {
    const result = await this.processor.attempt(delivery);
    const now = this.clock.now();
    if (result.kind === 'retry' && delivery.attempts < this.options.maxAttempts) {
      const delay = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (delivery.attempts - 1));
      await this.deliveries.retryLater(delivery.id, new Date(now.getTime() + delay), result.reason, result.detail);
      this.logger.warn(`delivery ${delivery.id} (${delivery.tag}) hit ${result.reason}; attempt ${delivery.attempts + 1} in ${Math.round(delay / 1000)} s`);
      return;
    }
    const outcome =
      result.kind === 'done'
        ? result.outcome
        : { status: 'failed' as const, reason: result.reason, detail: `gave up after ${delivery.attempts} attempts: ${result.detail}`, violations: null, version: null };
    await this.deliveries.finish(delivery.id, outcome, now);
    if (outcome.status === 'failed') {
      await this.processor.auditFailure(delivery, outcome, await this.processor.slugOf(delivery.pluginId));
      this.logger.warn(`delivery ${delivery.id} (${delivery.tag}) failed: ${outcome.reason}`);
    }
  }

  private async loop(): Promise<void> {
    do {
      this.rerun = false;
      try {
        await this.runOnce();
      } catch (error) {
        // Everything the next pass needs is in the database.
        this.logger.error(`processing webhook deliveries failed: ${(error as Error).message}`);
      }
    } while (this.rerun && !this.stopping);
  }

  private schedule(): void {
    if (!this.started || this.stopping) return;
    this.timer = setTimeout(() => this.kick(), this.options.pollIntervalMs);
    this.timer.unref();
  }
}
