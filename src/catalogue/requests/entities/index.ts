import { PluginRequestEntity } from './plugin-request.entity';
import { PluginRequestVoteEntity } from './plugin-request-vote.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const REQUESTS_ENTITIES = [PluginRequestEntity, PluginRequestVoteEntity];
