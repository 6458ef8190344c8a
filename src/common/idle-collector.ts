import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this share of the last interval spent running JavaScript, the server counts as quiet. */
const QUIET_UTILIZATION = 0.05;
/** Garbage worth a full collection: heap grown this much since the last one. */
const WORTH_COLLECTING_BYTES = 8 * 1024 * 1024;

export interface IdleCollectorParts {
  /** Share of the time since the last call that the event loop spent running (0 to 1). */
  utilization(): number;
  heapUsedBytes(): number;
  /** A full, memory-reducing collection. */
  collect(): void;
  every(ms: number, tick: () => void): { stop(): void };
}

/**
 * Gives the heap back when the server goes quiet. V8 shrinks the heap only after a full
 * collection, and starts those by allocation, so a server that stops allocating keeps what start-up
 * or the last burst left: an idle registry on PostgreSQL held 92 MiB of heap of which 51 were
 * live, 160 MiB resident against 127 after one collection. Browsers run V8's memory reducer on
 * idle notifications; Node sends none. So every interval: when the event loop ran under 5% of
 * this interval and the one before, and the heap grew 8 MiB or more since the last collection,
 * collect once. (After a single quiet interval V8 still counts start-up's allocation rate as
 * recent and keeps the young generation's 32 MiB: measured, one quiet interval freed heap but no
 * resident memory.) A request that arrives during the collection waits for it (tens of
 * milliseconds, on a quiet server only).
 */
export class IdleCollector {
  private heapAfterCollect = 0;
  private quietTicks = 0;
  private timer: { stop(): void } | null = null;
  collections = 0;

  constructor(private readonly parts: IdleCollectorParts) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.parts.utilization();
    this.timer = this.parts.every(intervalMs, () => this.tick());
  }

  stop(): void {
    this.timer?.stop();
    this.timer = null;
  }

  tick(): void {
    this.quietTicks = this.parts.utilization() < QUIET_UTILIZATION ? this.quietTicks + 1 : 0;
    if (this.quietTicks < 2 || this.parts.heapUsedBytes() - this.heapAfterCollect < WORTH_COLLECTING_BYTES) return;
    this.parts.collect();
    this.collections += 1;
    this.heapAfterCollect = this.parts.heapUsedBytes();
  }
}

/** The process's own measures, its collector and an unref'd timer. */
export function processIdleCollectorParts(): IdleCollectorParts {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let gc: (() => void) | null = null;
  return {
    utilization() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    heapUsedBytes: () => getHeapStatistics().used_heap_size,
    collect() {
      // The collector V8 offers scripts only under --expose-gc; set now, a new context gets it.
      if (!gc) {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      gc();
    },
    every(ms, tick) {
      const timer = setInterval(tick, ms);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },
  };
}
