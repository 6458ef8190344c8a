import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { AuditAction } from './audit-actions';
import { AuditEntryEntity } from './entities/audit-entry.entity';

/** Who acted: a signed-in user, a publisher token (with its owner), or the system. */
export interface AuditActor {
  userId?: string | null;
  tokenId?: string | null;
  ip?: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  actor?: AuditActor;
  slug?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit entry through `manager` (the caller's transaction, when it has one).
 * Framework-free, so the operator CLI, which never boots Nest, writes exactly what the server writes.
 */
export async function insertAuditRecord(manager: EntityManager, record: AuditRecord): Promise<void> {
  // `details` is free-form JSON, which TypeORM's deep-partial type cannot express.
  await manager.getRepository(AuditEntryEntity).insert(toAuditRow(record) as QueryDeepPartialEntity<AuditEntryEntity>);
}

function toAuditRow(record: AuditRecord): Omit<AuditEntryEntity, 'id' | 'createdAt'> {
  return {
    action: record.action,
    actorUserId: record.actor?.userId ?? null,
    actorTokenId: record.actor?.tokenId ?? null,
    ip: record.actor?.ip ?? null,
    slug: record.slug ?? null,
    details: record.details ?? {},
  };
}
