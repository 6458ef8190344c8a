import type { CachedResponse, ResponseCacheStore } from './store';

interface Slot {
  key: string;
  generation: string;
  entry: CachedResponse;
  expiresAt: number;
  bytes: number;
  protected: boolean;
  prev: Slot | null;
  next: Slot | null;
}

export interface MemoryStoreLimits {
  maxEntries: number;
  maxBytes: number;
}

/** The protected segment's share of either limit: the rest is probation, where new answers wait for their first hit. */
const PROTECTED_SHARE = 0.8;

/** A least-recently-used list: `head` is the oldest, `tail` the youngest. */
class SlotList {
  head: Slot | null = null;
  tail: Slot | null = null;
  entries = 0;
  bytes = 0;

  push(slot: Slot): void {
    slot.prev = this.tail;
    slot.next = null;
    if (this.tail) this.tail.next = slot;
    else this.head = slot;
    this.tail = slot;
    this.entries += 1;
    this.bytes += slot.bytes;
  }

  unlink(slot: Slot): void {
    if (slot.prev) slot.prev.next = slot.next;
    else this.head = slot.next;
    if (slot.next) slot.next.prev = slot.prev;
    else this.tail = slot.prev;
    slot.prev = null;
    slot.next = null;
    this.entries -= 1;
    this.bytes -= slot.bytes;
  }

  clear(): void {
    this.head = null;
    this.tail = null;
    this.entries = 0;
    this.bytes = 0;
  }
}

/**
 * One instance's cache, a segmented LRU: an answer is stored in probation and moves to the
 * protected segment on its first hit; eviction takes probation's oldest first. So answers asked
 * once more and never again (the doorkeeper admits on the second ask) push out only each other,
 * never the answers people keep asking. Every operation is a few pointer moves: the Map is only
 * looked up, never iterated. (It had been: evicting by iterating the Map from its start walked,
 * on every write once full, the holes that deleted entries leave at its front until V8 rehashes
 * it, ~25 µs a write at 10,000 entries on an idle core.)
 */
export class MemoryResponseStore implements ResponseCacheStore {
  private readonly slots = new Map<string, Slot>();
  private readonly probation = new SlotList();
  private readonly protectedSlots = new SlotList();
  private generation = 0;
  /** Marked writes under way (beginWrite without its endWrite yet). */
  private writes = 0;
  /** Slots linked and unlinked so far: a test's measure that bookkeeping does not grow with the cache. */
  private moves = 0;

  constructor(
    private readonly limits: MemoryStoreLimits,
    private readonly now: () => number = Date.now,
  ) {}

  read(key: string): Promise<{ generation: string | null; entry: CachedResponse | null }> {
    if (this.writes > 0) return Promise.resolve({ generation: null, entry: null });
    const generation = String(this.generation);
    const slot = this.slots.get(key);
    if (!slot) return Promise.resolve({ generation, entry: null });
    if (slot.generation !== generation || slot.expiresAt <= this.now()) {
      this.remove(slot);
      return Promise.resolve({ generation, entry: null });
    }
    this.promote(slot);
    return Promise.resolve({ generation, entry: slot.entry });
  }

  write(key: string, generation: string, entry: CachedResponse, ttlMs: number): Promise<void> {
    if (this.writes > 0 || generation !== String(this.generation)) return Promise.resolve();
    const bytes = entry.body.length * 2 + 256;
    if (bytes > this.limits.maxBytes) return Promise.resolve();
    const previous = this.slots.get(key);
    if (previous) this.remove(previous);
    const slot: Slot = { key, generation, entry, expiresAt: this.now() + ttlMs, bytes, protected: false, prev: null, next: null };
    this.slots.set(key, slot);
    this.link(this.probation, slot);
    while (this.slots.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      const oldest = this.probation.head ?? this.protectedSlots.head;
      if (!oldest) break;
      this.remove(oldest);
    }
    return Promise.resolve();
  }

  bump(): Promise<void> {
    this.generation += 1;
    this.clear();
    return Promise.resolve();
  }

  beginWrite(): Promise<void> {
    this.writes += 1;
    return this.bump();
  }

  endWrite(): Promise<void> {
    this.writes = Math.max(0, this.writes - 1);
    return this.bump();
  }

  close(): Promise<void> {
    this.clear();
    return Promise.resolve();
  }

  get size(): number {
    return this.slots.size;
  }

  /** Slots linked or unlinked since the store was made. */
  get bookkeepingMoves(): number {
    return this.moves;
  }

  private get bytes(): number {
    return this.probation.bytes + this.protectedSlots.bytes;
  }

  /** A hit: to the young end of the protected segment, whose oldest go back to probation past its share. */
  private promote(slot: Slot): void {
    this.unlink(slot);
    slot.protected = true;
    this.link(this.protectedSlots, slot);
    const maxEntries = Math.max(1, Math.floor(this.limits.maxEntries * PROTECTED_SHARE));
    const maxBytes = this.limits.maxBytes * PROTECTED_SHARE;
    while (
      this.protectedSlots.head &&
      this.protectedSlots.head !== slot &&
      (this.protectedSlots.entries > maxEntries || this.protectedSlots.bytes > maxBytes)
    ) {
      const demoted = this.protectedSlots.head;
      this.unlink(demoted);
      demoted.protected = false;
      this.link(this.probation, demoted);
    }
  }

  private remove(slot: Slot): void {
    this.unlink(slot);
    this.slots.delete(slot.key);
  }

  private link(list: SlotList, slot: Slot): void {
    list.push(slot);
    this.moves += 1;
  }

  private unlink(slot: Slot): void {
    (slot.protected ? this.protectedSlots : this.probation).unlink(slot);
    this.moves += 1;
  }

  private clear(): void {
    this.slots.clear();
    this.probation.clear();
    this.protectedSlots.clear();
  }
}
