import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { OccasionalWarning } from '../../common/logging/occasional-warning';
import { addDays, utcDay } from '../../lib/charts/days';
import { DownloadDaysRepository } from './download-days.repository';
import { ReleasesRepository } from './releases.repository';

/** How often counted downloads are written: one statement a second, whatever the traffic. */
export const DOWNLOAD_FLUSH_INTERVAL_MS = 1_000;

/** How many UTC days of daily download counts are kept (today included); older days are pruned once a day. */
export const DOWNLOAD_DAYS_KEPT = 366;

/**
 * Counts downloads in memory and adds them to the release and plugin rows, and to their rows of
 * the UTC day each download was counted on, in batches, so a popular release's row is not locked
 * once per request. Every count reaches the database: a failed write keeps its counts for the
 * next one, and shutdown writes what is left. (A process killed outright loses at most the last
 * interval's counts.) The same timer prunes the days older than DOWNLOAD_DAYS_KEPT, once a day.
 */
@Injectable()
export class DownloadCounter implements OnModuleInit, OnApplicationShutdown {
  /** Counts by day, then by release. */
  private pending = new Map<string, Map<string, number>>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private prunedOn: string | null = null;
  private readonly logger = new Logger('Downloads');
  /** Writes fail every second while the database is away: said once a minute, not once a write. */
  private readonly writeFailures: OccasionalWarning;
  private readonly pruneFailures: OccasionalWarning;

  constructor(
    private readonly releases: ReleasesRepository,
    private readonly days: DownloadDaysRepository,
    private readonly clock: Clock,
  ) {
    this.writeFailures = new OccasionalWarning(
      (message) => this.logger.warn(message),
      () => clock.nowMs(),
    );
    this.pruneFailures = new OccasionalWarning(
      (message) => this.logger.warn(message),
      () => clock.nowMs(),
    );
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), DOWNLOAD_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  count(releaseId: string): void {
    const day = utcDay(this.clock.now());
    let counts = this.pending.get(day);
    if (!counts) this.pending.set(day, (counts = new Map()));
    counts.set(releaseId, (counts.get(releaseId) ?? 0) + 1);
  }

  /** Writes every count so far (and prunes, on a new day); resolves once they are in the database (or kept for the next try). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending()).then(() => this.pruneDaily());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const counts = [...batch].flatMap(([day, byRelease]) => [...byRelease].map(([releaseId, n]) => ({ releaseId, day, n })));
    try {
      await this.releases.addDownloads(counts);
    } catch (error) {
      for (const { releaseId, day, n } of counts) {
        let kept = this.pending.get(day);
        if (!kept) this.pending.set(day, (kept = new Map()));
        kept.set(releaseId, (kept.get(releaseId) ?? 0) + n);
      }
      this.writeFailures.say(`download counts kept for the next write (said at most once a minute): ${(error as Error).message}`);
    }
  }

  private async pruneDaily(): Promise<void> {
    const today = utcDay(this.clock.now());
    if (this.prunedOn === today) return;
    try {
      await this.days.pruneBefore(addDays(today, 1 - DOWNLOAD_DAYS_KEPT));
      this.prunedOn = today;
    } catch (error) {
      this.pruneFailures.say(`pruning old download days failed (tried again at the next write): ${(error as Error).message}`);
    }
  }
}
