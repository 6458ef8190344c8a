import { AuditEntryEntity } from '../audit/entities/audit-entry.entity';
import { SigningKeyEntity } from '../integrity/entities/signing-key.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { KindEntity } from '../kinds/entities/kind.entity';
import { PluginOwnerEntity } from '../plugins/entities/plugin-owner.entity';
import { PluginEntity } from '../plugins/entities/plugin.entity';
import { ReleaseEntity } from '../plugins/entities/release.entity';
import { AppSettingEntity } from '../settings/entities/app-setting.entity';
import { PublisherTokenEntity } from '../tokens/entities/publisher-token.entity';
import { UserEntity } from '../users/entities/user.entity';

/** Every entity, listed explicitly so the compiled server and the TS tests load the same set. */
export const ENTITIES = [AppSettingEntity, AuditEntryEntity, UserEntity, SessionEntity, PublisherTokenEntity, SigningKeyEntity, KindEntity, PluginEntity, PluginOwnerEntity, ReleaseEntity];
