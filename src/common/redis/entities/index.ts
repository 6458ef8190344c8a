import { RegistryIdentityEntity } from './registry-identity.entity';

/** The table common/redis owns (the identity that names the registry's Redis namespace). */
export const REDIS_ENTITIES = [RegistryIdentityEntity];
