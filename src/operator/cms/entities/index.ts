import { PageEntity } from './page.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const CMS_ENTITIES = [PageEntity];
