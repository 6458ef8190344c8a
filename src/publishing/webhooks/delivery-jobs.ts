import type { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

/** A delivery claimed for one attempt, and how to tell its queue how the attempt ended. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryEntity;
  /** No attempt follows this one, whatever its outcome. */
  lastAttempt: boolean;
  /** The attempt ended for good (succeeded, skipped or failed). */
  done(): Promise<void>;
  /** The attempt hit network trouble: another one comes after `delayMs` (about). */
  retry(delayMs: number): Promise<void>;
}

export interface DeliveryClaimOptions {
  now: Date;
  leaseMs: number;
  maxAttempts: number;
}

/**
 * Where the webhook worker's jobs live. The delivery row is always the state owners see; the
 * queue decides which delivery is attempted when. On PostgreSQL that is pg-boss; the embedded
 * database (which pg-boss does not run on) claims the rows themselves with SKIP LOCKED.
 */
export abstract class DeliveryJobs {
  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;
  /** Queues stored deliveries (new, replayed, reconciled) for an attempt as soon as possible. */
  abstract enqueue(deliveryIds: readonly string[]): Promise<void>;
  /** Makes deliveries whose lease lapsed (their instance died mid-attempt) due again. */
  abstract resumeLapsed(now: Date): Promise<void>;
  /** The next due delivery, claimed for `leaseMs`; null when none is due. */
  abstract claim(options: DeliveryClaimOptions): Promise<ClaimedDelivery | null>;
}
