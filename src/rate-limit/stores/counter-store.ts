/**
 * Fixed-window request counters. `hit` adds one to the counter named `key` and answers its new
 * value; the counter disappears `ttlMs` after its first hit. Keys carry their window, so a new
 * window starts at zero without a reset.
 */
export interface CounterStore {
  hit(key: string, ttlMs: number): Promise<number>;
}
