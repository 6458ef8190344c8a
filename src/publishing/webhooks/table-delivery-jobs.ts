import { DeliveriesRepository } from './deliveries.repository';
import { type ClaimedDelivery, type DeliveryClaimOptions, DeliveryJobs } from './delivery-jobs';

/**
 * The embedded database's queue: the delivery table itself. A row is due when queued and past
 * its next attempt time, or processing with a lapsed lease (its instance stopped); retries are
 * the row's next attempt time, set by the worker.
 */
export class TableDeliveryJobs extends DeliveryJobs {
  constructor(private readonly deliveries: DeliveriesRepository) {
    super();
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  enqueue(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to do: `claim` takes rows whose lease lapsed as it takes queued ones. */
  resumeLapsed(): Promise<void> {
    return Promise.resolve();
  }

  async claim({ now, leaseMs, maxAttempts }: DeliveryClaimOptions): Promise<ClaimedDelivery | null> {
    const delivery = await this.deliveries.claimNext(now, leaseMs);
    if (!delivery) return null;
    return { delivery, lastAttempt: delivery.attempts >= maxAttempts, done: () => Promise.resolve(), retry: () => Promise.resolve() };
  }
}
