import type { DrainSummary, ReleaseResigner } from './release-resigner';

export interface ResignWorkerOptions {
  /** Releases re-signed per transaction. */
  batchSize: number;
  /** How often an idle worker looks for work (a rotation by another instance or the CLI, a late release). */
  intervalMs: number;
  /**
   * How long a drained key stays in the key set after its last release was re-signed: longer than
   * any client may cache a release response signed by it (60 s), so no cached release names a
   * key that has just left.
   */
  retireGraceMs: number;
}

export const DEFAULT_RESIGN_WORKER_OPTIONS: ResignWorkerOptions = {
  batchSize: 100,
  intervalMs: 30_000,
  retireGraceMs: 5 * 60_000,
};

export interface ResignWorkerLog {
  log(message: string): void;
  error(message: string): void;
}

/**
 * Runs the re-signing in the background of a server: at start (resuming whatever a crashed or
 * stopped instance left), after a rotation (`kick`), and every `intervalMs`. Passes never overlap
 * within one worker; across instances the row locks and the key-set lock keep them apart.
 */
export class ReleaseResignWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private started = false;
  private stopping = false;

  constructor(
    private readonly resigner: ReleaseResigner,
    private readonly options: ResignWorkerOptions,
    private readonly logger: ResignWorkerLog,
    /** Told after a pass that re-signed releases: their served signatures changed. */
    private readonly afterResign: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Starts now and then every interval. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.kick();
  }

  /** Runs a pass now (or right after the one under way). Does nothing unless started. */
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

  /** Stops after the batch under way commits; resolves once nothing runs. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: every batch there is, then the drained key's completion check. */
  async runOnce(): Promise<DrainSummary> {
    const summary = await this.resigner.drain({
      batchSize: this.options.batchSize,
      graceMs: this.options.retireGraceMs,
      via: 'worker',
      shouldStop: () => this.stopping,
    });
    if (summary.resigned) await this.afterResign();
    if (summary.resigned || summary.failed) {
      this.logger.log(`re-signed ${summary.resigned} release(s) with the current key${summary.failed ? `; ${summary.failed} could not be (their stored signature does not verify)` : ''}`);
    }
    if (summary.status?.state === 'retired') this.logger.log(`signing key ${summary.status.kid} is drained and left the key set`);
    return summary;
  }

  private async loop(): Promise<void> {
    do {
      this.rerun = false;
      try {
        await this.runOnce();
      } catch (error) {
        // The next pass retries; everything it needs is in the database.
        this.logger.error(`re-signing releases failed: ${(error as Error).message}`);
      }
    } while (this.rerun && !this.stopping);
  }

  private schedule(): void {
    if (!this.started || this.stopping) return;
    this.timer = setTimeout(() => this.kick(), this.options.intervalMs);
    this.timer.unref();
  }
}
