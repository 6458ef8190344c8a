import { Injectable } from '@nestjs/common';
import { AuditRepository } from '../../platform/audit/audit.repository';
import { badRequest } from '../../common/errors/domain-error';
import { parseInstant } from './instant';
import type { AuditPageDto, AuditQueryDto } from './dto/audit.dto';
import { toAuditEntryDto } from './audit.mapper';

@Injectable()
export class AdminAuditService {
  constructor(private readonly audit: AuditRepository) {}

  /** Newest first; `from` inclusive, `to` exclusive. */
  async page(query: AuditQueryDto): Promise<AuditPageDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const from = query.from === undefined ? undefined : parseInstant(query.from)!;
    const to = query.to === undefined ? undefined : parseInstant(query.to)!;
    if (from && to && from.getTime() > to.getTime()) {
      throw badRequest('validation-failed', 'from is after to', [{ path: '/from', message: 'from: must not be after to' }]);
    }
    const { entries, total } = await this.audit.page(
      { action: query.action, slug: query.slug, actorUserId: query.actor, from, to },
      page,
      limit,
    );
    return { entries: entries.map(toAuditEntryDto), page, limit, total, totalPages: Math.ceil(total / limit) };
  }
}
