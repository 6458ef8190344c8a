import type { TtlStore } from './ttl-store';

/** One instance's store (no REDIS_URL): the oldest entries go first past `maxEntries`. */
export class MemoryTtlStore implements TtlStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): Promise<string | null> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) this.entries.delete(key);
    return Promise.resolve(entry && entry.expiresAt > this.now() ? entry.value : null);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
    return Promise.resolve();
  }
}
