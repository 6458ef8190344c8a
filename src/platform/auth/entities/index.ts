import { OAuthStateEntity } from './oauth-state.entity';
import { SessionEntity } from './session.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const AUTH_ENTITIES = [SessionEntity, OAuthStateEntity];
