import { Injectable } from '@nestjs/common';
import { AuditRepository } from '../audit/audit.repository';
import type { AuditPageDto, AuditQueryDto } from './dto/audit.dto';
import { toAuditEntryDto } from './audit.mapper';

@Injectable()
export class AdminAuditService {
  constructor(private readonly audit: AuditRepository) {}

  /** Newest first. */
  async page(query: AuditQueryDto): Promise<AuditPageDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { entries, total } = await this.audit.page({ action: query.action, slug: query.slug, actorUserId: query.actor }, page, limit);
    return { entries: entries.map(toAuditEntryDto), page, limit, total, totalPages: Math.ceil(total / limit) };
  }
}
