import { BackgroundLoop, loopFailureLog } from '../../common/background-loop';
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
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Runs the re-signing in the background of a server: at start (resuming whatever a crashed or
 * stopped instance left), after a rotation (`kick`), and every `intervalMs`. Passes never overlap
 * within one worker; across instances the row locks and the key-set lock keep them apart.
 */
export class ReleaseResignWorker {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly resigner: ReleaseResigner,
    private readonly options: ResignWorkerOptions,
    private readonly logger: ResignWorkerLog,
    /** Told after a pass that re-signed releases: their served signatures changed. */
    private readonly afterResign: () => Promise<void> = () => Promise.resolve(),
  ) {
    // The next pass retries; everything it needs is in the database.
    this.loop = new BackgroundLoop(() => this.runOnce(), options.intervalMs, loopFailureLog(this.logger, 're-signing releases'));
  }

  /** Starts now and then every interval. */
  start(): void {
    this.loop.start();
  }

  /** Runs a pass now (or right after the one under way). Does nothing unless started. */
  kick(): void {
    this.loop.kick();
  }

  /** Stops after the batch under way commits; resolves once nothing runs. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: every batch there is, then each draining key's completion check. */
  async runOnce(): Promise<DrainSummary> {
    const summary = await this.resigner.drain({
      batchSize: this.options.batchSize,
      graceMs: this.options.retireGraceMs,
      via: 'worker',
      shouldStop: () => this.loop.isStopping,
    });
    if (summary.resigned) await this.afterResign();
    if (summary.resigned || summary.failed) {
      this.logger.log(
        `re-signed ${summary.resigned} release(s) with the current key${summary.failed ? `; ${summary.failed} could not be (their stored signature does not verify)` : ''}`,
      );
    }
    for (const drain of summary.drains ?? []) {
      if (drain.state === 'retired') this.logger.log(`signing key ${drain.kid} is drained and left the key set`);
    }
    return summary;
  }
}
