import type { CachedResponse, ResponseCacheStore } from './store';

interface Slot {
  generation: string;
  entry: CachedResponse;
  expiresAt: number;
  bytes: number;
}

export interface MemoryStoreLimits {
  maxEntries: number;
  maxBytes: number;
}

/** One instance's cache: least recently used entries go first when either limit is reached. */
export class MemoryResponseStore implements ResponseCacheStore {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  private generation = 0;

  constructor(
    private readonly limits: MemoryStoreLimits,
    private readonly now: () => number = Date.now,
  ) {}

  read(key: string): Promise<{ generation: string; entry: CachedResponse | null }> {
    const generation = String(this.generation);
    const slot = this.slots.get(key);
    if (!slot) return Promise.resolve({ generation, entry: null });
    if (slot.generation !== generation || slot.expiresAt <= this.now()) {
      this.remove(key, slot);
      return Promise.resolve({ generation, entry: null });
    }
    // Re-inserting moves the key to the young end of the Map's order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return Promise.resolve({ generation, entry: slot.entry });
  }

  write(key: string, generation: string, entry: CachedResponse, ttlMs: number): Promise<void> {
    if (generation !== String(this.generation)) return Promise.resolve();
    const bytes = entry.body.length * 2 + 256;
    if (bytes > this.limits.maxBytes) return Promise.resolve();
    const previous = this.slots.get(key);
    if (previous) this.remove(key, previous);
    this.slots.set(key, { generation, entry, expiresAt: this.now() + ttlMs, bytes });
    this.bytes += bytes;
    for (const [oldKey, oldSlot] of this.slots) {
      if (this.slots.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldKey, oldSlot);
    }
    return Promise.resolve();
  }

  bump(): Promise<void> {
    this.generation += 1;
    this.slots.clear();
    this.bytes = 0;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.slots.clear();
    this.bytes = 0;
    return Promise.resolve();
  }

  get size(): number {
    return this.slots.size;
  }

  private remove(key: string, slot: Slot): void {
    this.slots.delete(key);
    this.bytes -= slot.bytes;
  }
}
