import { AUDIT_ENTITIES } from '../platform/audit/entities';
import { AUTH_ENTITIES } from '../platform/auth/entities';
import { CHANGES_ENTITIES } from '../news/changes/entities';
import { CMS_ENTITIES } from '../operator/cms/entities';
import { SITE_ENTITIES } from '../platform/site/entities';
import { FORGES_ENTITIES } from '../platform/forges/entities';
import { REDIS_ENTITIES } from '../common/redis/entities';
import { IMAGES_ENTITIES } from '../catalogue/images/entities';
import { INTEGRITY_ENTITIES } from '../trust/integrity/entities';
import { KINDS_ENTITIES } from '../catalogue/kinds/entities';
import { MIRROR_ENTITIES } from '../mirror/entities';
import { LOCAL_SIGN_IN_ENTITIES } from '../accounts/local-sign-in/entities';
import { PLUGINS_ENTITIES } from '../catalogue/plugins/entities';
import { REQUESTS_ENTITIES } from '../catalogue/requests/entities';
import { SETTINGS_ENTITIES } from '../platform/settings/entities';
import { SUBSCRIPTIONS_ENTITIES } from '../news/subscriptions/entities';
import { TOKENS_ENTITIES } from '../accounts/tokens/entities';
import { TRANSPARENCY_ENTITIES } from '../trust/transparency-log/entities';
import { TRUSTED_PUBLISHING_ENTITIES } from '../publishing/trusted-publishing/entities';
import { USERS_ENTITIES } from '../platform/users/entities';
import { WEBHOOKS_ENTITIES } from '../publishing/webhooks/entities';

/**
 * Every entity, listed explicitly so the compiled server and the TS tests load the same set. Each
 * feature lists its own tables (its entities/index.ts): a new table touches that list and a
 * migration, not this file; a new feature with tables adds its list here.
 */
export const ENTITIES = [
  ...SETTINGS_ENTITIES,
  ...AUDIT_ENTITIES,
  ...USERS_ENTITIES,
  ...AUTH_ENTITIES,
  ...TOKENS_ENTITIES,
  ...INTEGRITY_ENTITIES,
  ...KINDS_ENTITIES,
  ...PLUGINS_ENTITIES,
  ...CMS_ENTITIES,
  ...SITE_ENTITIES,
  ...REQUESTS_ENTITIES,
  ...REDIS_ENTITIES,
  ...WEBHOOKS_ENTITIES,
  ...TRUSTED_PUBLISHING_ENTITIES,
  ...LOCAL_SIGN_IN_ENTITIES,
  ...FORGES_ENTITIES,
  ...IMAGES_ENTITIES,
  ...CHANGES_ENTITIES,
  ...SUBSCRIPTIONS_ENTITIES,
  ...MIRROR_ENTITIES,
  ...TRANSPARENCY_ENTITIES,
];
