import { ImageEntity } from './image.entity';
import { ImageProxyEntryEntity } from './image-proxy-entry.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const IMAGES_ENTITIES = [ImageEntity, ImageProxyEntryEntity];
