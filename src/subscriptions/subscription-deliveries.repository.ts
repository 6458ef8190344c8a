import type { DataSource, EntityManager } from 'typeorm';
import { SubscriptionDeliveryEntity } from './entities/subscription-delivery.entity';
import { SubscriptionEventEntity } from './entities/subscription-event.entity';

/** A claimed delivery with what its attempt needs. */
export interface ClaimedSubscriptionDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  attempts: number;
  url: string;
}

/** Which claim of a delivery: its id and the attempts count its claim set (the claim's token). */
export interface DeliveryClaim {
  id: string;
  attempts: number;
}

/** How an attempt ended. */
export interface AttemptRecord {
  responseStatus: number | null;
  detail: string | null;
  at: Date;
}

/** pg answers an UPDATE or DELETE ... RETURNING as [rows, count]; PGlite's driver as the rows. */
export function rowsOf<T>(raw: unknown[]): T[] {
  return (Array.isArray(raw[0]) ? raw[0] : raw) as T[];
}

/** Every query on subscription deliveries and events, the worker's job table (and a subscription's in-flight lease) included. */
export class SubscriptionDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SubscriptionDeliveryEntity);
  }

  /**
   * Claims the oldest due delivery for `leaseMs`: queued and due, or processing with a lapsed
   * lease (its instance stopped), of an enabled subscription of an enabled user that has no
   * attempt under way. Each branch has its partial index, which PostgreSQL's planner ORs
   * (BitmapOr), so no UNION ALL is needed. SKIP LOCKED lets several instances claim side by
   * side; the delivery moves to processing and the
   * subscription's in-flight lease is set in the same statement, so no delivery is attempted twice
   * at once and no subscription has two attempts at once (a claim that read the subscription
   * before another claim set its lease re-checks it once it has the row: READ COMMITTED's recheck
   * of a concurrently updated row).
   */
  async claimNext(now: Date, leaseMs: number): Promise<ClaimedSubscriptionDelivery | null> {
    const raw: unknown[] = await this.dataSource.query(
      `WITH picked AS (
         SELECT sd.id, sd.subscription_id
         FROM subscription_delivery sd
         JOIN subscription ss ON ss.id = sd.subscription_id
         JOIN user_account u ON u.id = ss.user_id
         WHERE ((sd.status = 'queued' AND sd.next_attempt_at <= $1) OR (sd.status = 'processing' AND sd.locked_until < $1))
           AND ss.disabled_at IS NULL AND u.disabled_at IS NULL AND (ss.in_flight_until IS NULL OR ss.in_flight_until < $1)
         ORDER BY sd.next_attempt_at, sd.created_at
         LIMIT 1
         FOR UPDATE OF sd SKIP LOCKED FOR NO KEY UPDATE OF ss SKIP LOCKED
       ), in_flight AS (
         UPDATE subscription s SET in_flight_until = $2 FROM picked WHERE s.id = picked.subscription_id RETURNING s.id, s.url
       )
       UPDATE subscription_delivery d SET status = 'processing', attempts = d.attempts + 1, locked_until = $2, updated_at = $1
       FROM picked JOIN in_flight ON in_flight.id = picked.subscription_id
       WHERE d.id = picked.id
       RETURNING d.id, d.subscription_id AS "subscriptionId", d.event_id AS "eventId", d.attempts, in_flight.url`,
      [now, new Date(now.getTime() + leaseMs)],
    );
    return rowsOf<ClaimedSubscriptionDelivery>(raw)[0] ?? null;
  }

  /**
   * A claim is `(id, attempts)`: the attempts count claimNext set is its token, so a worker whose
   * lease lapsed (and whose delivery another worker claimed again, counting one more attempt)
   * can neither renew nor record over the new claim. Renews the subscription's in-flight lease
   * with the delivery's.
   */
  async renewLease(claim: DeliveryClaim, lockedUntil: Date): Promise<boolean> {
    const raw: unknown[] = await this.dataSource.query(
      // The subscription first, then the delivery: a deletion's order (see lockForOutcome).
      `WITH in_flight AS (
         UPDATE subscription s SET in_flight_until = $3 FROM subscription_delivery d
         WHERE d.id = $1 AND d.attempts = $2 AND d.status = 'processing' AND s.id = d.subscription_id RETURNING s.id
       )
       UPDATE subscription_delivery SET locked_until = $3
       WHERE id = $1 AND attempts = $2 AND status = 'processing' AND EXISTS (SELECT 1 FROM in_flight) RETURNING id`,
      [claim.id, claim.attempts, lockedUntil],
    );
    return rowsOf(raw).length > 0;
  }

  /** The attempt recorded: the subscription may be claimed again. */
  async endInFlight(subscriptionId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(`UPDATE subscription SET in_flight_until = NULL WHERE id = $1`, [subscriptionId]);
  }

  event(id: string): Promise<SubscriptionEventEntity | null> {
    return this.dataSource.manager.getRepository(SubscriptionEventEntity).findOneBy({ id });
  }

  async succeeded(claim: DeliveryClaim, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id: claim.id, attempts: claim.attempts, status: 'processing' },
      { status: 'succeeded', lockedUntil: null, responseStatus: record.responseStatus, detail: record.detail, lastAttemptAt: record.at },
    );
    return (result.affected ?? 0) > 0;
  }

  async retryLater(claim: DeliveryClaim, nextAttemptAt: Date, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id: claim.id, attempts: claim.attempts, status: 'processing' },
      { status: 'queued', nextAttemptAt, lockedUntil: null, responseStatus: record.responseStatus, detail: record.detail, lastAttemptAt: record.at },
    );
    return (result.affected ?? 0) > 0;
  }

  async failed(claim: DeliveryClaim, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id: claim.id, attempts: claim.attempts, status: 'processing' },
      { status: 'failed', lockedUntil: null, responseStatus: record.responseStatus, detail: record.detail, lastAttemptAt: record.at },
    );
    return (result.affected ?? 0) > 0;
  }

  /** The subscription's deliveries, newest first, with their events. */
  async page(subscriptionId: string, page: number, limit: number): Promise<{ deliveries: SubscriptionDeliveryEntity[]; total: number }> {
    const [deliveries, total] = await this.repo()
      .createQueryBuilder('d')
      .innerJoinAndSelect('d.event', 'e')
      .where('d.subscription_id = :subscriptionId', { subscriptionId })
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { deliveries, total };
  }

  findWithEvent(id: string, subscriptionId: string): Promise<SubscriptionDeliveryEntity | null> {
    return this.repo().findOne({ where: { id, subscriptionId }, relations: { event: true } });
  }

  /**
   * Queues a finished (succeeded or failed) delivery again now, with a fresh count of attempts
   * (same event, so the same `webhook-id`); false while it is queued or under way.
   */
  async requeue(id: string, subscriptionId: string, now: Date): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(SubscriptionDeliveryEntity)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: now, lockedUntil: null })
      .where("id = :id AND subscription_id = :subscriptionId AND status IN ('succeeded', 'failed')", { id, subscriptionId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * Retention: deletes up to `batch` finished (succeeded or failed) deliveries last attempted
   * before `before`, then the events no delivery refers to any more; answers how many deliveries
   * went. One transaction.
   */
  async prune(before: Date, batch: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const gone: unknown[] = await manager.query(
        `DELETE FROM subscription_delivery WHERE id IN (
           SELECT id FROM subscription_delivery WHERE status IN ('succeeded', 'failed') AND COALESCE(last_attempt_at, created_at) < $1 LIMIT $2)
         RETURNING event_id`,
        [before, batch],
      );
      const rows = rowsOf<{ event_id: string }>(gone);
      const events = [...new Set(rows.map((row) => row.event_id))];
      if (events.length) {
        await manager.query(
          `DELETE FROM subscription_event e WHERE e.id = ANY ($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM subscription_delivery d WHERE d.event_id = e.id)`,
          [events],
        );
      }
      return rows.length;
    });
  }
}
