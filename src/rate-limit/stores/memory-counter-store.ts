import type { Clock } from '../../common/clock';
import type { CounterStore } from './counter-store';

interface Counter {
  count: number;
  expiresAtMs: number;
}

/**
 * Counters in this instance's memory (no REDIS_URL). Bounded: expired counters are swept once
 * the map passes `maxEntries`, and while it is still full new subjects are let through uncounted
 * (an attacker spraying addresses gets no more than it would from fresh addresses anyway).
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  hit(key: string, ttlMs: number): Promise<number> {
    const now = this.clock.nowMs();
    const existing = this.counters.get(key);
    if (existing && existing.expiresAtMs > now) {
      existing.count += 1;
      return Promise.resolve(existing.count);
    }
    if (!existing && this.counters.size >= this.maxEntries) this.sweep(now);
    if (!existing && this.counters.size >= this.maxEntries) return Promise.resolve(1);
    this.counters.set(key, { count: 1, expiresAtMs: now + ttlMs });
    return Promise.resolve(1);
  }

  get size(): number {
    return this.counters.size;
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.expiresAtMs <= now) this.counters.delete(key);
  }
}
