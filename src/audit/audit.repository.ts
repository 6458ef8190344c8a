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
}
