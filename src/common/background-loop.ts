import { isDatabaseUnavailable } from './errors/database-unavailable';
import { OCCASIONAL_WARNING_INTERVAL_MS } from './logging/occasional-warning';

/**
 * A loop's failure as its log line: a warning while the database is away (expected, and over when
 * it is back), an error for anything else.
 */
export function loopFailureLog(log: { warn(message: string): void; error(message: string): void }, what: string): (error: Error) => void {
  return (error) =>
    isDatabaseUnavailable(error)
      ? log.warn(`${what} failed (tried again once the database is back): ${error.message}`)
      : log.error(`${what} failed: ${error.message}`);
}

/**
 * Runs a background pass now (`kick`), then every `intervalMs`, never two at once: a kick during
 * a pass runs exactly one more right after it. A failed pass is reported and the next one tries
 * again (the work it needs is in the database); a run of failures is reported once a minute.
 * Framework-free, so the CLI may run one too.
 */
export class BackgroundLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private started = false;
  private stopping = false;
  /** When the last failure was reported; null while passes succeed. */
  private reportedAt: number | null = null;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: Error) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** True from `stop` on: a pass should end after the piece of work under way. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Starts a pass now and then every interval. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.kick();
  }

  /** A pass now (or right after the one under way); nothing unless started. */
  kick(): void {
    if (!this.started || this.stopping) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
      this.schedule();
    });
  }

  /** Resolves once the pass under way has ended; no pass starts after it. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.rerun = false;
      try {
        await this.pass();
        this.reportedAt = null;
      } catch (error) {
        this.report(error as Error);
      }
    } while (this.rerun && !this.stopping);
  }

  /**
   * The first failure after a success is reported, then one a minute while they go on: with the
   * database down a pass fails every interval, and each loop saying so every second would bury
   * the one line that matters.
   */
  private report(error: Error): void {
    const now = this.now();
    if (this.reportedAt !== null && now - this.reportedAt < OCCASIONAL_WARNING_INTERVAL_MS) return;
    this.reportedAt = now;
    this.onError(error);
  }

  private schedule(): void {
    if (!this.started || this.stopping) return;
    this.timer = setTimeout(() => this.kick(), this.intervalMs);
    this.timer.unref();
  }
}
