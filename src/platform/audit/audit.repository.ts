import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AuditEntryEntity } from './entities/audit-entry.entity';

export interface AuditFilter {
  action?: string;
  slug?: string;
  actorUserId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

/** How many entries of one action were written on one UTC day. */
export interface ActionDayCount {
  action: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  count: number;
}

@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>) {}

  async page(filter: AuditFilter, page: number, limit: number): Promise<{ entries: AuditEntryEntity[]; total: number }> {
    const query = this.entries.createQueryBuilder('e');
    if (filter.action) query.andWhere('e.action = :action', { action: filter.action });
    if (filter.slug) query.andWhere('e.slug = :slug', { slug: filter.slug });
    if (filter.actorUserId) query.andWhere('e.actor_user_id = :actor', { actor: filter.actorUserId });
    if (filter.from) query.andWhere('e.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('e.created_at < :to', { to: filter.to });
    const [entries, total] = await query
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { entries, total };
  }

  /**
   * Entries of these actions per UTC day from `from` (inclusive) to `to` (exclusive), only the
   * days that have any: a range scan of the (action, created_at) index for each action.
   */
  async countByDay(actions: readonly string[], from: Date, to: Date): Promise<ActionDayCount[]> {
    const rows: { action: string; day: string; count: number }[] = await this.entries.query(
      `SELECT action, (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS count
       FROM audit_entry WHERE action = ANY($1::varchar[]) AND created_at >= $2 AND created_at < $3
       GROUP BY 1, 2 ORDER BY 2, 1`,
      [actions, from, to],
    );
    return rows;
  }
}
