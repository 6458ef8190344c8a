/** Thrown by PictureGate.run when the gate's wait queue is full: the task was not started. */
export class GateFull extends Error {
  constructor() {
    super('too many tasks are waiting');
    this.name = 'GateFull';
  }
}

/**
 * At most `permits` tasks at once in this process, the rest waiting in arrival order; with
 * `maxWaiting`, a task that would be one more waiter is refused (GateFull) instead of queued.
 * Used for picture decodes (a decode holds the whole bitmap, up to MAX_INPUT_PIXELS × 4 bytes,
 * so the number at once is the memory bound, not the number of requests) and for the README
 * proxy's upstream fetches (each buffers up to its byte cap). Framework-free.
 */
export class PictureGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly permits: number,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** No task running or waiting. */
  get idle(): boolean {
    return this.running === 0;
  }

  /**
   * Runs `task` once a permit is free. `patience`, when given, bounds only the wait: once it is
   * aborted, a task still waiting leaves the queue without running and the call rejects with the
   * signal's reason (a task already running is not touched).
   */
  async run<T>(task: () => Promise<T>, patience?: AbortSignal): Promise<T> {
    if (this.running >= this.permits) {
      if (this.waiting.length >= this.maxWaiting) throw new GateFull();
      await this.turn(patience);
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Resolves when a finishing task hands this one its permit, or rejects (holding none) once `patience` is aborted. */
  private turn(patience: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (patience?.aborted) return reject(patience.reason);
      const leave = () => {
        const at = this.waiting.indexOf(handOver);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(patience?.reason);
      };
      const handOver = () => {
        patience?.removeEventListener('abort', leave);
        resolve();
      };
      this.waiting.push(handOver);
      patience?.addEventListener('abort', leave, { once: true });
    });
  }
}
