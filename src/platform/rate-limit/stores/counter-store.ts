/**
 * Fixed-window request counters and cooldowns. Keys carry their window, so a new window starts
 * at zero without a reset; every entry disappears on its own after its time to live.
 */
export interface CounterStore {
  /** Adds one to the counter named `key` and answers its new value; it disappears `ttlMs` after its first hit. */
  hit(key: string, ttlMs: number): Promise<number>;
  /** The counter's value without adding to it (0 when there is none). */
  count(key: string): Promise<number>;
  /** Takes one back from an existing counter (a request counted provisionally that turned out to belong elsewhere). */
  release(key: string): Promise<void>;
  /**
   * Starts the cooldown `key` lasting until `untilMs` unless one is running at `nowMs`: answers 0
   * when it started, else the milliseconds left of the running one. Times are the caller's clock.
   */
  claim(key: string, nowMs: number, untilMs: number): Promise<number>;
}
