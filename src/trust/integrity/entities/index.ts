import { MirroredKeyEntity } from './mirrored-key.entity';
import { ReleaseResignFailureEntity } from './release-resign-failure.entity';
import { SigningKeyEntity } from './signing-key.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const INTEGRITY_ENTITIES = [SigningKeyEntity, ReleaseResignFailureEntity, MirroredKeyEntity];
