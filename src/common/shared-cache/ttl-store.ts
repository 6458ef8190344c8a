/** Where a shared cache keeps its strings: this process's memory, or Redis shared by every instance. */
export interface TtlStore {
  get(key: string): Promise<string | null>;
  /** `ttlMs` only bounds how long the store keeps the entry; freshness is the cache's own stamp. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
