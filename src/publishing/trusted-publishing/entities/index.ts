import { PendingPublisherEntity } from './pending-publisher.entity';
import { TrustedPublisherEntity } from './trusted-publisher.entity';
import { UsedOidcTokenEntity } from './used-oidc-token.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const TRUSTED_PUBLISHING_ENTITIES = [TrustedPublisherEntity, PendingPublisherEntity, UsedOidcTokenEntity];
