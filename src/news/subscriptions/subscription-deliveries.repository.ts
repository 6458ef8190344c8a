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
  /** A generic reason for a failure (WebhookSender's), never bytes of the receiver's answer. */
  detail: string | null;
  /** How long the attempt took; null when none was made. */
  durationMs: number | null;
  at: Date;
}

/** pg answers an UPDATE or DELETE ... RETURNING as [rows, count]; PGlite's driver as the rows. */
export function rowsOf<T>(raw: unknown[]): T[] {
  return (Array.isArray(raw[0]) ? raw[0] : raw) as T[];
}

/**
 * The status of a delivery queued again: parked while its subscription or owner is disabled (the
 * claim never reads parked rows; enabling both queues them, see the park triggers).
 */
const QUEUED_OR_PARKED = `CASE WHEN EXISTS (SELECT 1 FROM subscription ps JOIN user_account pu ON pu.id = ps.user_id
  WHERE ps.id = "subscription_delivery"."subscription_id" AND (ps.disabled_at IS NOT NULL OR pu.disabled_at IS NOT NULL)) THEN 'parked' ELSE 'queued' END`;

/** Every query on subscription deliveries and events, the worker's job table (and a subscription's in-flight lease) included. */
export class SubscriptionDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SubscriptionDeliveryEntity);
  }

  /**
   * Claims the oldest due delivery for `leaseMs`: queued and due, or processing with a lapsed
   * lease (its instance stopped), of an enabled subscription of an enabled user that has no
   * attempt under way. Each branch reads its own partial index in index order and stops at its
   * first claimable row (LIMIT 1), and the earlier of the two is taken: an OR of the branches
   * would be a BitmapOr, which has no order, so every claim would sort every due row. Deliveries
   * of disabled subscriptions or users are parked (never in these indexes). SKIP LOCKED lets
   * several instances claim side by side (FOR UPDATE is not allowed under UNION, so each branch
   * locks in its own CTE: the branch not taken holds its row only for this statement). The
   * delivery moves to processing and the subscription's in-flight lease is set, naming this
   * claim, in the same statement, so no delivery is attempted twice at once and no subscription
   * has two attempts at once (a claim that read the subscription before another claim set its
   * lease re-checks it once it has the row: READ COMMITTED's recheck of a concurrently updated row).
   */
  async claimNext(now: Date, leaseMs: number): Promise<ClaimedSubscriptionDelivery | null> {
    const branch = (where: string, order: string) => `
         SELECT sd.id, sd.subscription_id, sd.attempts, sd.next_attempt_at AS due
         FROM subscription_delivery sd
         JOIN subscription ss ON ss.id = sd.subscription_id
         JOIN user_account u ON u.id = ss.user_id
         WHERE ${where}
           AND ss.disabled_at IS NULL AND u.disabled_at IS NULL AND (ss.in_flight_until IS NULL OR ss.in_flight_until < $1)
         ORDER BY ${order}
         LIMIT 1
         FOR UPDATE OF sd SKIP LOCKED FOR NO KEY UPDATE OF ss SKIP LOCKED`;
    const raw: unknown[] = await this.dataSource.query(
      `WITH due_queued AS (${branch(`sd.status = 'queued' AND sd.next_attempt_at <= $1`, 'sd.next_attempt_at')}
       ), lapsed AS (${branch(`sd.status = 'processing' AND sd.locked_until < $1`, 'sd.locked_until')}
       ), picked AS (
         SELECT * FROM (SELECT * FROM due_queued UNION ALL SELECT * FROM lapsed) candidate ORDER BY due LIMIT 1
       ), in_flight AS (
         UPDATE subscription s SET in_flight_until = $2, in_flight_delivery_id = picked.id, in_flight_attempts = picked.attempts + 1
         FROM picked WHERE s.id = picked.subscription_id RETURNING s.id, s.url
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
   * with the delivery's, only while this claim holds it (after a lapse another delivery of the
   * subscription may hold it).
   */
  async renewLease(claim: DeliveryClaim, lockedUntil: Date): Promise<boolean> {
    const raw: unknown[] = await this.dataSource.query(
      // The subscription first, then the delivery: a deletion's order (see lockForOutcome).
      `WITH in_flight AS (
         UPDATE subscription s SET in_flight_until = $3 FROM subscription_delivery d
         WHERE d.id = $1 AND d.attempts = $2 AND d.status = 'processing' AND s.id = d.subscription_id
           AND s.in_flight_delivery_id = $1 AND s.in_flight_attempts = $2 RETURNING s.id
       )
       UPDATE subscription_delivery SET locked_until = $3
       WHERE id = $1 AND attempts = $2 AND status = 'processing' AND EXISTS (SELECT 1 FROM in_flight) RETURNING id`,
      [claim.id, claim.attempts, lockedUntil],
    );
    return rowsOf(raw).length > 0;
  }

  /** The claim's attempt recorded: the subscription may be claimed again, unless another claim holds its lease by now. */
  async endInFlight(subscriptionId: string, claim: DeliveryClaim, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `UPDATE subscription SET in_flight_until = NULL, in_flight_delivery_id = NULL, in_flight_attempts = NULL
       WHERE id = $1 AND in_flight_delivery_id = $2 AND in_flight_attempts = $3`,
      [subscriptionId, claim.id, claim.attempts],
    );
  }

  event(id: string): Promise<SubscriptionEventEntity | null> {
    return this.dataSource.manager.getRepository(SubscriptionEventEntity).findOneBy({ id });
  }

  async succeeded(claim: DeliveryClaim, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id: claim.id, attempts: claim.attempts, status: 'processing' },
      {
        status: 'succeeded',
        lockedUntil: null,
        responseStatus: record.responseStatus,
        detail: record.detail,
        durationMs: record.durationMs,
        lastAttemptAt: record.at,
      },
    );
    return (result.affected ?? 0) > 0;
  }

  async retryLater(claim: DeliveryClaim, nextAttemptAt: Date, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    // Raw SQL: TypeORM would rewrite `subscription` (a relation's name) inside QUEUED_OR_PARKED.
    const raw: unknown[] = await (manager ?? this.dataSource.manager).query(
      `UPDATE subscription_delivery SET status = ${QUEUED_OR_PARKED}, next_attempt_at = $3, locked_until = NULL,
         response_status = $4, detail = $5, last_attempt_at = $6, duration_ms = $7, updated_at = now()
       WHERE id = $1 AND attempts = $2 AND status = 'processing' RETURNING id`,
      [claim.id, claim.attempts, nextAttemptAt, record.responseStatus, record.detail, record.at, record.durationMs],
    );
    return rowsOf(raw).length > 0;
  }

  async failed(claim: DeliveryClaim, record: AttemptRecord, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager).update(
      { id: claim.id, attempts: claim.attempts, status: 'processing' },
      {
        status: 'failed',
        lockedUntil: null,
        responseStatus: record.responseStatus,
        detail: record.detail,
        durationMs: record.durationMs,
        lastAttemptAt: record.at,
      },
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
    const raw: unknown[] = await this.dataSource.query(
      `UPDATE subscription_delivery SET status = ${QUEUED_OR_PARKED}, attempts = 0, next_attempt_at = $3, locked_until = NULL, updated_at = now()
       WHERE id = $1 AND subscription_id = $2 AND status IN ('succeeded', 'failed') RETURNING id`,
      [id, subscriptionId, now],
    );
    return rowsOf(raw).length > 0;
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
