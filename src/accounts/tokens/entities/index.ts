import { PublisherTokenEntity } from './publisher-token.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const TOKENS_ENTITIES = [PublisherTokenEntity];
