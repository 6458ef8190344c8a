import { MirrorFailureEntity } from './mirror-failure.entity';
import { MirrorStateEntity } from './mirror-state.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const MIRROR_ENTITIES = [MirrorStateEntity, MirrorFailureEntity];
