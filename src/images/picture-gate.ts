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

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.permits) {
      if (this.waiting.length >= this.maxWaiting) throw new GateFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
