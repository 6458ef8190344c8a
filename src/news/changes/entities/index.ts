import { CatalogueEventEntity } from './catalogue-event.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const CHANGES_ENTITIES = [CatalogueEventEntity];
