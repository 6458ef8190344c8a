import { usableKeys } from './keys';
import type { KeySet, PublicJwk } from './types';

export type KeySetFetcher = () => Promise<KeySet>;

/**
 * A fixed key set (nothing to refresh from), or a fetcher. With a fetcher and no `cached` set, the
 * first call loads the set and a second call is the one permitted refresh.
 */
export type KeySetSource = KeySet | { fetchKeySet: KeySetFetcher; cached?: KeySet };

/**
 * Holds the key set for one verification and enforces the spec's "refresh the key set once, then
 * fail": a stale cache is healed, but a bad kid cannot make the verifier hammer the registry.
 */
export class KeyResolver {
  private keys: PublicJwk[] | undefined;
  private refreshUsed = false;
  /** The set obtained by a refresh, for callers that cache key sets. */
  refreshedKeySet: KeySet | undefined;

  constructor(private readonly source: KeySetSource) {
    if ('keys' in source) this.keys = usableKeys(source);
    else if (source.cached) this.keys = usableKeys(source.cached);
  }

  get canRefresh(): boolean {
    return 'fetchKeySet' in this.source && !this.refreshUsed;
  }

  async find(kid: string): Promise<PublicJwk | undefined> {
    if (this.keys === undefined && 'fetchKeySet' in this.source) {
      this.keys = usableKeys(await this.source.fetchKeySet());
    }
    return this.keys?.find((key) => key.kid === kid);
  }

  /** Re-fetches the set if a refresh is still allowed; returns whether one happened. */
  async refresh(): Promise<boolean> {
    if (!this.canRefresh || !('fetchKeySet' in this.source)) return false;
    this.refreshUsed = true;
    this.refreshedKeySet = await this.source.fetchKeySet();
    this.keys = usableKeys(this.refreshedKeySet);
    return true;
  }
}
