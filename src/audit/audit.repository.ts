import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AuditEntryEntity } from './entities/audit-entry.entity';

export interface AuditFilter {
  action?: string;
  slug?: string;
  actorUserId?: string;
}

@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>) {}

  /** Inserts through the caller's transaction when one is given, so the entry commits or rolls back with the work. */
  async insert(entry: Omit<AuditEntryEntity, 'id' | 'createdAt'>, manager?: EntityManager): Promise<void> {
    const repository = manager ? manager.getRepository(AuditEntryEntity) : this.entries;
    // `details` is free-form JSON, which TypeORM's deep-partial type cannot express.
    await repository.insert(entry as QueryDeepPartialEntity<AuditEntryEntity>);
  }

  async page(filter: AuditFilter, page: number, limit: number): Promise<{ entries: AuditEntryEntity[]; total: number }> {
    const query = this.entries.createQueryBuilder('e');
    if (filter.action) query.andWhere('e.action = :action', { action: filter.action });
    if (filter.slug) query.andWhere('e.slug = :slug', { slug: filter.slug });
    if (filter.actorUserId) query.andWhere('e.actor_user_id = :actor', { actor: filter.actorUserId });
    const [entries, total] = await query
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { entries, total };
  }
}
