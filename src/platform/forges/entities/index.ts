import { ForgeNameHistoryEntity } from './forge-name-history.entity';
import { StoredForgeVersionEntity } from './stored-forge-version.entity';
import { StoredForgeEntity } from './stored-forge.entity';

export const FORGES_ENTITIES = [StoredForgeEntity, StoredForgeVersionEntity, ForgeNameHistoryEntity];
