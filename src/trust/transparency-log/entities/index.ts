import { TransparencyLeafEntity } from './transparency-leaf.entity';
import { TransparencyNodeEntity } from './transparency-node.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const TRANSPARENCY_ENTITIES = [TransparencyLeafEntity, TransparencyNodeEntity];
