import { type DataSource, type EntityManager, LessThan, LessThanOrEqual } from 'typeorm';
import type { ProblemFieldError } from '../../common/errors/domain-error';
import { type DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export type NewDelivery = Pick<
  WebhookDeliveryEntity,
  'pluginId' | 'provider' | 'deliveryId' | 'event' | 'source' | 'repoUrl' | 'tag' | 'assets' | 'payloadSha256'
>;

/** The admin-wide list's filters; absent means any. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  slug?: string;
}

/** How a finished attempt ended. */
export interface DeliveryOutcome {
  status: Extract<DeliveryStatus, 'succeeded' | 'skipped' | 'failed'>;
  reason: string | null;
  detail: string | null;
  violations: ProblemFieldError[] | null;
  version: string | null;
}

const COLUMNS = `id, plugin_id AS "pluginId", provider, delivery_id AS "deliveryId", event, source, repo_url AS "repoUrl", tag, assets,
  payload_sha256 AS "payloadSha256", status, reason, detail, violations, version, attempts, next_attempt_at AS "nextAttemptAt",
  locked_until AS "lockedUntil", created_at AS "createdAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

/** Every query on deliveries, the job table of the webhook worker included. */
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(WebhookDeliveryEntity);
  }

  /**
   * Stores a queued delivery; null when it was stored before: the same (provider, delivery id), or
   * the same body for the same provider, plugin and tag (a replay under a new delivery id).
   */
  async insertQueued(delivery: NewDelivery, now: Date): Promise<WebhookDeliveryEntity | null> {
    const result = await this.repo()
      .createQueryBuilder()
      .insert()
      .values({ ...delivery, status: 'queued', attempts: 0, nextAttemptAt: now })
      .orIgnore()
      .returning('id')
      .execute();
    const id = (result.raw as { id: string }[])[0]?.id;
    return id ? this.repo().findOneByOrFail({ id }) : null;
  }

  /**
   * Claims the oldest due delivery for `leaseMs`: queued and due, or processing with a lapsed lease
   * (its instance stopped or crashed). SKIP LOCKED lets several instances claim side by side.
   */
  async claimNext(now: Date, leaseMs: number): Promise<WebhookDeliveryEntity | null> {
    const raw: unknown[] = await this.dataSource.query(
      `UPDATE webhook_delivery SET status = 'processing', attempts = attempts + 1, locked_until = $2, updated_at = $1
       WHERE id = (
         SELECT id FROM webhook_delivery
         WHERE (status = 'queued' AND next_attempt_at <= $1) OR (status = 'processing' AND locked_until < $1)
         ORDER BY next_attempt_at, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [now, new Date(now.getTime() + leaseMs)],
    );
    // pg answers an UPDATE ... RETURNING as [rows, count]; PGlite's driver as the rows.
    const list = (Array.isArray(raw[0]) ? raw[0] : raw) as WebhookDeliveryEntity[];
    return list[0] ?? null;
  }

  /**
   * Claims one delivery for an attempt its queue (pg-boss) says is due: queued, or processing with
   * a lapsed lease; null when it is finished or another instance holds it.
   */
  async claimById(id: string, now: Date, leaseMs: number): Promise<WebhookDeliveryEntity | null> {
    const raw: unknown[] = await this.dataSource.query(
      `UPDATE webhook_delivery SET status = 'processing', attempts = attempts + 1, locked_until = $3, updated_at = $2
       WHERE id = $1 AND (status = 'queued' OR (status = 'processing' AND locked_until < $2))
       RETURNING ${COLUMNS}`,
      [id, now, new Date(now.getTime() + leaseMs)],
    );
    const list = (Array.isArray(raw[0]) ? raw[0] : raw) as WebhookDeliveryEntity[];
    return list[0] ?? null;
  }

  /**
   * Extends the claim of a delivery under way (the attempt's heartbeat); false when it is no
   * longer processing (another instance took it up after the lease lapsed).
   */
  async renewLease(id: string, lockedUntil: Date): Promise<boolean> {
    const result = await this.repo().update({ id, status: 'processing' }, { lockedUntil });
    return (result.affected ?? 0) > 0;
  }

  /** Deliveries processing under a lease that lapsed: their instance stopped or crashed mid-attempt. */
  async lapsedIds(now: Date): Promise<string[]> {
    const rows = await this.repo().find({ select: { id: true }, where: { status: 'processing', lockedUntil: LessThan(now) } });
    return rows.map((row) => row.id);
  }

  /** Queued deliveries due at `before` or earlier, oldest first (at most `limit`). */
  async queuedDueIds(before: Date, limit: number): Promise<string[]> {
    const rows = await this.repo().find({
      select: { id: true },
      where: { status: 'queued', nextAttemptAt: LessThanOrEqual(before) },
      order: { nextAttemptAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Deliveries not finished: queued, or processing (perhaps by an instance that stopped). */
  async unfinishedIds(): Promise<string[]> {
    const rows = await this.repo().find({ select: { id: true }, where: [{ status: 'queued' }, { status: 'processing' }] });
    return rows.map((row) => row.id);
  }

  async finish(id: string, outcome: DeliveryOutcome, now: Date): Promise<void> {
    await this.repo().update({ id }, { ...outcome, detail: outcome.detail?.slice(0, 1000) ?? null, lockedUntil: null, finishedAt: now });
  }

  /**
   * Marks a delivery delivered inside the transaction that records its release: an attempt whose
   * answer was lost (the database went away right after the commit) is not taken up again, and
   * so never finds its own release and calls itself skipped.
   */
  async markDelivered(id: string, version: string, now: Date, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { status: 'succeeded', reason: null, version, lockedUntil: null, finishedAt: now });
  }

  /** Back to the queue after a transient failure, due again at `nextAttemptAt`. */
  async retryLater(id: string, nextAttemptAt: Date, reason: string, detail: string): Promise<void> {
    await this.repo().update({ id }, { status: 'queued', nextAttemptAt, lockedUntil: null, reason, detail: detail.slice(0, 1000) });
  }

  /** Re-queues a failed delivery; false when it is not failed (or not the plugin's). */
  async requeueFailed(id: string, pluginId: string, now: Date): Promise<boolean> {
    const result = await this.repo().update(
      { id, pluginId, status: 'failed' },
      {
        status: 'queued',
        nextAttemptAt: now,
        attempts: 0,
        reason: null,
        detail: null,
        violations: null,
        finishedAt: null,
        lockedUntil: null,
      },
    );
    return (result.affected ?? 0) > 0;
  }

  findForPlugin(id: string, pluginId: string): Promise<WebhookDeliveryEntity | null> {
    return this.repo().findOneBy({ id, pluginId });
  }

  recentForPlugin(pluginId: string, limit: number): Promise<WebhookDeliveryEntity[]> {
    return this.repo().find({ where: { pluginId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** Every plugin's deliveries, newest first, with the plugin's slug joined in (`plugin.slug`). */
  async page(filter: DeliveryFilter, page: number, limit: number): Promise<{ deliveries: WebhookDeliveryEntity[]; total: number }> {
    const query = this.repo().createQueryBuilder('d').innerJoin('d.plugin', 'p').addSelect(['p.id', 'p.slug']);
    if (filter.status) query.andWhere('d.status = :status', { status: filter.status });
    if (filter.slug) query.andWhere('p.slug = :slug', { slug: filter.slug });
    const [deliveries, total] = await query
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { deliveries, total };
  }

  /** Tags of the plugin that have a delivery at all (any status). */
  async knownTags(pluginId: string): Promise<Set<string>> {
    const rows = await this.repo().find({ select: { tag: true }, where: { pluginId } });
    return new Set(rows.map((row) => row.tag));
  }
}
