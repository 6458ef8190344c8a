import { FreshnessStatementEntity } from './freshness-statement.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const FRESHNESS_ENTITIES = [FreshnessStatementEntity];
