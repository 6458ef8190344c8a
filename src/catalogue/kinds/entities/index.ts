import { KindEntity } from './kind.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const KINDS_ENTITIES = [KindEntity];
