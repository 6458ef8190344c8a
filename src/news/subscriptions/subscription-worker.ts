import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import { BackgroundLoop, loopFailureLog } from '../../common/background-loop';
import { Clock } from '../../common/clock';
import { startHeartbeat } from '../../common/heartbeat';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { eventPayload } from './event-payload';
import { openSigningSecret } from './signing-secret';
import { type ClaimedSubscriptionDelivery, SubscriptionDeliveriesRepository } from './subscription-deliveries.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { WebhookSender } from './webhook-sender';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/**
 * The wait after each failed attempt (Standard Webhooks' schedule): the first attempt at once,
 * then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; a delivery failing the 8th time has
 * failed (about 27.6 hours after the event).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

export interface SubscriptionWorkerOptions {
  /** Whether the server runs the worker on its own (tests drive `runOnce` instead). */
  autoStart: boolean;
  /** How often the worker looks for due deliveries. */
  pollIntervalMs: number;
  /** How long a claim lasts without a heartbeat (renewed every third of it during an attempt). */
  leaseMs: number;
  /** How many attempts an instance runs at once (each to a different subscription). */
  concurrency: number;
}

/** Finished deliveries (and then events no delivery refers to) are deleted after this long. */
export const DELIVERY_RETENTION_MS = 30 * 24 * HOUR;
/** How often the worker's loop runs the retention pass. */
const PRUNE_EVERY_MS = HOUR;

export const DEFAULT_SUBSCRIPTION_WORKER_OPTIONS: SubscriptionWorkerOptions = {
  autoStart: true,
  pollIntervalMs: 2_000,
  leaseMs: 60_000,
  concurrency: 4,
};
export const SUBSCRIPTION_WORKER_OPTIONS = Symbol('SUBSCRIPTION_WORKER_OPTIONS');

/**
 * Delivers queued subscription events: claims due delivery rows (SKIP LOCKED, so any number of
 * instances share the work and no delivery is attempted twice at once), up to `concurrency` at
 * once but never two of one subscription (a receiver that stalls holds up only its own
 * deliveries, and is never sent a second request while one is open), signs and POSTs each, and
 * records the outcome: success, a retry on the schedule, or failure. A subscription whose
 * deliveries keep failing for `SUBSCRIPTION_DISABLE_AFTER_DAYS` is disabled. The rows are the
 * queue, so a restart loses nothing: a lapsed claim is taken up again.
 */
@Injectable()
export class SubscriptionWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Subscriptions');
  private readonly loop: BackgroundLoop;
  private prunedAt = 0;

  constructor(
    @Inject(SUBSCRIPTION_WORKER_OPTIONS) readonly options: SubscriptionWorkerOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: SubscriptionDeliveriesRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly sender: WebhookSender,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {
    this.loop = new BackgroundLoop(
      () => this.pass(),
      options.pollIntervalMs,
      loopFailureLog(this.logger, 'delivering subscription events'),
    );
  }

  onApplicationBootstrap(): void {
    if (this.options.autoStart) this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** A pass now (after a replay, say). */
  kick(): void {
    this.loop.kick();
  }

  private async pass(): Promise<void> {
    if (this.clock.nowMs() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = this.clock.nowMs();
      await this.prune();
    }
    await this.runOnce();
  }

  /** Retention: deletes deliveries finished more than 30 days ago, then their events; answers how many deliveries went. */
  async prune(): Promise<number> {
    const before = new Date(this.clock.nowMs() - DELIVERY_RETENTION_MS);
    let total = 0;
    for (;;) {
      const gone = await this.deliveries.prune(before, 1000);
      total += gone;
      if (gone < 1000 || this.loop.isStopping) return total;
    }
  }

  /**
   * Attempts every due delivery, up to `concurrency` at once (one per subscription: the claim
   * skips a subscription with an attempt under way, so its next delivery is claimed once the
   * previous one is recorded); resolves, when none is due and none is under way, with how many
   * were attempted.
   */
  async runOnce(): Promise<number> {
    let attempted = 0;
    const running = new Set<Promise<void>>();
    let exhausted = false;
    try {
      while (!this.loop.isStopping) {
        if (!exhausted && running.size < this.options.concurrency) {
          const claimed = await this.deliveries.claimNext(this.clock.now(), this.options.leaseMs);
          if (claimed) {
            attempted += 1;
            const attempt: Promise<void> = this.attempt(claimed)
              .catch((error: Error) => this.logger.error(`subscription delivery ${claimed.id} failed: ${error.message}`))
              .finally(() => running.delete(attempt));
            running.add(attempt);
            continue;
          }
          exhausted = true;
        }
        if (running.size === 0) break;
        // One finished: its subscription's next delivery (or a slot) is free to claim. Or a poll
        // interval passed: a delivery that fell due meanwhile (a new event, a retry) is claimed
        // now, not when a stalled receiver's attempt times out.
        await this.firstOf(running, this.options.pollIntervalMs);
        exhausted = false;
      }
    } finally {
      // A failed claim (the database went away) still lets the attempts under way record their
      // outcome before runOnce settles: a shutdown awaiting it then leaves none half done.
      await Promise.all(running);
    }
    return attempted;
  }

  private async firstOf(running: Set<Promise<void>>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const interval = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    try {
      await Promise.race([...running, interval]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async attempt(claimed: ClaimedSubscriptionDelivery): Promise<void> {
    const { leaseMs } = this.options;
    const heartbeat = startHeartbeat(
      () => this.deliveries.renewLease({ id: claimed.id, attempts: claimed.attempts }, new Date(this.clock.nowMs() + leaseMs)),
      Math.max(1, Math.floor(leaseMs / 3)),
      (error) => this.logger.warn(`renewing the claim on subscription delivery ${claimed.id} failed: ${error.message}`),
    );
    let result;
    try {
      result = await this.send(claimed);
    } finally {
      heartbeat.stop();
    }
    const now = this.clock.now();
    const record = { responseStatus: result.status, detail: result.detail, durationMs: result.durationMs, at: now };
    const claim = { id: claimed.id, attempts: claimed.attempts };
    const ok = result.ok;
    // The outcome, the subscription's run of failures and a disabling (with its audit) are one transaction.
    const disabled = await this.subscriptions.inTransaction(async (manager) => {
      await this.subscriptions.lockForOutcome(claimed.subscriptionId, manager);
      if (ok) {
        if (await this.deliveries.succeeded(claim, record, manager)) {
          await this.deliveries.endInFlight(claimed.subscriptionId, claim, manager);
          await this.subscriptions.markSucceeding(claimed.subscriptionId, manager);
        }
        return null;
      }
      const wait = RETRY_SCHEDULE_MS[claimed.attempts - 1];
      const recorded =
        wait === undefined
          ? await this.deliveries.failed(
              claim,
              { ...record, detail: `gave up after ${claimed.attempts} attempts: ${result.detail}`.slice(0, 300) },
              manager,
            )
          : await this.deliveries.retryLater(claim, new Date(now.getTime() + wait), record, manager);
      // A claim taken over after its lease lapsed records nothing: the new claim's attempt will.
      if (!recorded) return null;
      await this.deliveries.endInFlight(claimed.subscriptionId, claim, manager);
      const days = this.config.subscriptionDisableAfterDays;
      const windowMs = days * 24 * HOUR;
      // The run is every failure since the last success, however sparse: a dead receiver told of
      // one event a week is disabled on the first failure a window after the run began.
      const since = await this.subscriptions.markFailing(claimed.subscriptionId, now, manager);
      if (now.getTime() - since.getTime() < windowMs) return null;
      const reason = `deliveries failed for ${days} days without a success (last: ${result.detail})`;
      if (!(await this.subscriptions.disable(claimed.subscriptionId, now, reason, manager))) return null;
      await this.audit.record({ action: 'subscription.disable', details: { subscriptionId: claimed.subscriptionId, reason } }, manager);
      return reason;
    });
    if (disabled) this.logger.warn(`subscription ${claimed.subscriptionId} disabled: ${disabled}`);
  }

  private async send(claimed: ClaimedSubscriptionDelivery) {
    const [event, sealed] = await Promise.all([
      this.deliveries.event(claimed.eventId),
      this.subscriptions.sealedSecret(claimed.subscriptionId),
    ]);
    if (!event || !sealed) return { ok: false as const, status: null, detail: 'the event or the subscription is gone', durationMs: null };
    let secret: string;
    try {
      secret = openSigningSecret(this.config.keyEncryptionKey, claimed.subscriptionId, sealed);
    } catch {
      // KEY_ENCRYPTION_KEY changed, or the row was tampered with: it fails like an unreachable receiver.
      return {
        ok: false as const,
        status: null,
        detail: 'the signing secret cannot be opened (was KEY_ENCRYPTION_KEY changed?)',
        durationMs: null,
      };
    }
    const body = Buffer.from(JSON.stringify(eventPayload(event, this.config.baseUrl)));
    return this.sender.send(claimed.url, secret, event.id, body, Math.floor(this.clock.nowMs() / 1000));
  }
}
