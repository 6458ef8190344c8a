/**
 * At most `permits` pictures decoded at once in this process, whoever asks (ingest or the README
 * proxy): a decode holds the whole bitmap, up to MAX_INPUT_PIXELS × 4 bytes, so two at once is
 * the memory bound, not the number of requests. Framework-free.
 */
export class PictureGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly permits: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.permits) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
