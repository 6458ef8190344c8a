/** One stored answer: the bytes and the headers a hit replays. */
export interface CachedResponse {
  body: string;
  etag: string;
  contentType: string;
  cacheControl: string;
  vary: string | null;
  /** The route's own headers a hit replays too (REPLAYED_HEADERS: a deprecated plugin's `latest`); absent when none. */
  headers?: Record<string, string>;
  /** Epoch ms after which the entry must not be served whatever its TTL (a freshness statement's reuse window); absent when none. */
  notAfter?: number;
}

/** Headers a route may set on a shareable answer that a hit must carry as well (RFC 9745 and freshness on `latest`). */
export const REPLAYED_HEADERS = ['Deprecation', 'Link', 'Registry-Freshness'] as const;

/**
 * Where entries live. Every entry is tagged with the generation it was built under; `bump`
 * starts a new generation, which retires every older entry at once on every instance that
 * shares the store. A reader takes the generation before it queries the database and stores
 * under that one, so an answer computed across a change is never served after it.
 *
 * A write that marks itself (`beginWrite` before its transaction, `endWrite` once it ended) is
 * also never served around: while one is under way `read` answers no generation (null) and no
 * entry, so nothing is served from before its commit and nothing read meanwhile is stored. A
 * `bump` after the commit alone leaves the moment between the two, when a hit still served the
 * answer from before the write after the database (a miss, a caller with credentials) had
 * already answered the one after it.
 */
export interface ResponseCacheStore {
  /** The current generation and the entry for `key` if it belongs to it; generation null while a marked write is under way. */
  read(key: string): Promise<{ generation: string | null; entry: CachedResponse | null }>;
  write(key: string, generation: string, entry: CachedResponse, ttlMs: number): Promise<void>;
  bump(): Promise<void>;
  /** A marked write starts: a new generation, and nothing served or stored until `endWrite`. */
  beginWrite(): Promise<void>;
  /** A marked write ended (committed or not): a new generation, served and stored again once no other marked write is under way. */
  endWrite(): Promise<void>;
  close(): Promise<void>;
}
