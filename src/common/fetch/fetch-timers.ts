/** The clock a fetch measures its timeouts with; injectable so tests can fire a timeout on cue. */
export interface FetchTimers {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: FetchTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface IdleWatch {
  /** Data arrived: the quiet period starts again. */
  touch(): void;
  stop(): void;
}

/**
 * Calls `onIdle` once nothing has touched the watch for `idleMs`. Touching only records the time:
 * re-arming a timer for every chunk of a multi-gigabyte body would cost more than the check.
 */
export function watchIdle(timers: FetchTimers, idleMs: number, onIdle: () => void): IdleWatch {
  let lastTouched = timers.now();
  let stopped = false;
  const check = () => {
    if (stopped) return;
    const quiet = timers.now() - lastTouched;
    if (quiet >= idleMs) {
      stopped = true;
      onIdle();
    } else {
      handle = timers.setTimeout(check, idleMs - quiet);
    }
  };
  let handle = timers.setTimeout(check, idleMs);
  return {
    touch: () => {
      lastTouched = timers.now();
    },
    stop: () => {
      stopped = true;
      timers.clearTimeout(handle);
    },
  };
}
