import { UserEntity } from './user.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const USERS_ENTITIES = [UserEntity];
