import type { TokenAuthContext } from '../../platform/auth/auth-context';
import type { PublisherTokenEntity } from './entities/publisher-token.entity';

/** The auth context PublisherTokenGuard establishes: the token's owner and its whole stored row. */
export interface PublisherTokenContext extends TokenAuthContext {
  token: PublisherTokenEntity;
}
