import type { DataSource, EntityManager } from 'typeorm';
import type { SubscriptionScope } from './event-types';
import { SubscriptionEntity } from './entities/subscription.entity';
import { rowsOf } from './subscription-deliveries.repository';

export interface NewSubscription {
  userId: string;
  url: string;
  description: string | null;
  events: string[];
  scope: SubscriptionScope;
  target: string | null;
}

/** Every query on subscriptions. */
export class SubscriptionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(SubscriptionEntity);
  }

  /** Runs `work` in one transaction (the worker's outcome writes). */
  inTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Runs `work` with the user's subscriptions serialized (the per-user limit holds under races). */
  inUserTransaction<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM user_account WHERE id = $1 FOR UPDATE', [userId]);
      return work(manager);
    });
  }

  count(userId: string, manager: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ userId });
  }

  /** Inserts the row, then seals its secret bound to its id (`sealFor`). */
  async insert(row: NewSubscription, sealFor: (id: string) => Buffer, manager: EntityManager): Promise<SubscriptionEntity> {
    const inserted = await this.repo(manager).save(this.repo(manager).create({ ...row, secretSealed: Buffer.alloc(0) }));
    await this.repo(manager).update({ id: inserted.id }, { secretSealed: sealFor(inserted.id) });
    return this.repo(manager).findOneByOrFail({ id: inserted.id });
  }

  listForUser(userId: string): Promise<SubscriptionEntity[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findForUser(id: string, userId: string): Promise<SubscriptionEntity | null> {
    return this.repo().findOneBy({ id, userId });
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id });
  }

  /** The sealed secret, selected only here. */
  async sealedSecret(id: string): Promise<Buffer | null> {
    const row = await this.repo().createQueryBuilder('s').select(['s.id']).addSelect('s.secretSealed').where('s.id = :id', { id }).getOne();
    return row?.secretSealed ?? null;
  }

  /**
   * Locks the subscription for an attempt's outcome before its delivery row is written: the order
   * a deletion takes them in (the subscription, then its deliveries by cascade), so an outcome
   * and a deletion at once wait for each other instead of deadlocking. Its owner is share-locked
   * first (an owner's change locks the user, then the subscription), so a delivery queued again
   * sees whether the owner was disabled (and is parked then) or the disabling's trigger sees it
   * queued and parks it, never neither.
   */
  async lockForOutcome(id: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT u.id FROM user_account u JOIN subscription s ON s.user_id = u.id WHERE s.id = $1 FOR SHARE OF u`, [id]);
    await manager.query(`SELECT id FROM subscription WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  }

  /** A success: the run of failures (if any) ends. */
  async markSucceeding(id: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ failingSince: null })
      .where('id = :id AND failing_since IS NOT NULL', { id })
      .execute();
  }

  /**
   * A failure: starts a run of failures unless one is under way (a run ends only with a success,
   * however long the subscription was quiet); answers when the run started.
   */
  async markFailing(id: string, now: Date, manager?: EntityManager): Promise<Date> {
    const raw: unknown[] = await (manager ?? this.dataSource.manager).query(
      `UPDATE subscription SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since`,
      [id, now],
    );
    const row = rowsOf<{ failing_since: Date | string }>(raw)[0];
    return row ? new Date(row.failing_since) : now;
  }

  /** Disables it unless it already is; true when this call did. */
  async disable(id: string, now: Date, reason: string, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ disabledAt: now, disabledReason: reason.slice(0, 300) })
      .where('id = :id AND disabled_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Enables it again with a fresh run (no failures counted). */
  async enable(id: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { disabledAt: null, disabledReason: null, failingSince: null });
  }
}
