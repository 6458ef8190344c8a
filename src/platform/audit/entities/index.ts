import { AuditEntryEntity } from './audit-entry.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const AUDIT_ENTITIES = [AuditEntryEntity];
