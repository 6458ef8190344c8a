import type { AuditEntryEntity } from '../../platform/audit/entities/audit-entry.entity';
import type { AuditEntryDto } from './dto/audit.dto';

export function toAuditEntryDto(entry: AuditEntryEntity): AuditEntryDto {
  return {
    id: entry.id,
    action: entry.action,
    actor: { userId: entry.actorUserId, tokenId: entry.actorTokenId },
    slug: entry.slug,
    ip: entry.ip,
    details: entry.details,
    createdAt: entry.createdAt.getTime(),
  };
}
