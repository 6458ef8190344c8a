import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { type AuditRecord, insertAuditRecord } from './audit-row';

export type { AuditActor, AuditRecord } from './audit-row';

@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  record(record: AuditRecord, manager?: EntityManager): Promise<void> {
    return insertAuditRecord(manager ?? this.dataSource.manager, record);
  }
}
