import type { Clock } from '../../../common/clock';
import type { CounterStore } from './counter-store';

interface Entry {
  /** A counter's value, or for a cooldown the time it ends. */
  value: number;
  expiresAtMs: number;
}

/**
 * Counters in this instance's memory (no REDIS_URL). Bounded: expired entries are swept once
 * the map passes `maxEntries`, and while it is still full new subjects are let through uncounted
 * (an attacker spraying addresses gets no more than it would from fresh addresses anyway).
 */
export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  hit(key: string, ttlMs: number): Promise<number> {
    const existing = this.live(key);
    if (existing) {
      existing.value += 1;
      return Promise.resolve(existing.value);
    }
    this.put(key, 1, this.clock.nowMs() + ttlMs);
    return Promise.resolve(1);
  }

  count(key: string): Promise<number> {
    return Promise.resolve(this.live(key)?.value ?? 0);
  }

  release(key: string): Promise<void> {
    const existing = this.live(key);
    if (existing && existing.value > 0) existing.value -= 1;
    return Promise.resolve();
  }

  claim(key: string, nowMs: number, untilMs: number): Promise<number> {
    const running = this.live(key);
    if (running && running.value > nowMs) return Promise.resolve(running.value - nowMs);
    this.entries.delete(key);
    this.put(key, untilMs, untilMs);
    return Promise.resolve(0);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAtMs > this.clock.nowMs() ? entry : undefined;
  }

  private put(key: string, value: number, expiresAtMs: number): void {
    const now = this.clock.nowMs();
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) this.sweep(now);
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) return;
    this.entries.set(key, { value, expiresAtMs });
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAtMs <= now) this.entries.delete(key);
  }
}
