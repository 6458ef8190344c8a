import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditAction } from './audit-actions';
import { AuditRepository } from './audit.repository';

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

@Injectable()
export class AuditService {
  constructor(private readonly repository: AuditRepository) {}

  record(record: AuditRecord, manager?: EntityManager): Promise<void> {
    return this.repository.insert(
      {
        action: record.action,
        actorUserId: record.actor?.userId ?? null,
        actorTokenId: record.actor?.tokenId ?? null,
        ip: record.actor?.ip ?? null,
        slug: record.slug ?? null,
        details: record.details ?? {},
      },
      manager,
    );
  }
}
