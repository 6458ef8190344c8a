import { AuditEntryEntity } from '../audit/entities/audit-entry.entity';
import { AppSettingEntity } from '../settings/entities/app-setting.entity';

/** Every entity, listed explicitly so the compiled server and the TS tests load the same set. */
export const ENTITIES = [AppSettingEntity, AuditEntryEntity];
