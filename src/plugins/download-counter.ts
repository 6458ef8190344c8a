import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ReleasesRepository } from './releases.repository';

/** How often counted downloads are written: one statement a second, whatever the traffic. */
export const DOWNLOAD_FLUSH_INTERVAL_MS = 1_000;

/**
 * Counts downloads in memory and adds them to the release and plugin rows in batches, so a
 * popular release's row is not locked once per request. Every count reaches the database: a
 * failed write keeps its counts for the next one, and shutdown writes what is left. (A process
 * killed outright loses at most the last interval's counts.)
 */
@Injectable()
export class DownloadCounter implements OnModuleInit, OnApplicationShutdown {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly logger = new Logger('Downloads');

  constructor(private readonly releases: ReleasesRepository) {}

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
    this.pending.set(releaseId, (this.pending.get(releaseId) ?? 0) + 1);
  }

  /** Writes every count so far; resolves once they are in the database (or kept for the next try). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.releases.addDownloads(batch);
    } catch (error) {
      for (const [releaseId, n] of batch) this.pending.set(releaseId, (this.pending.get(releaseId) ?? 0) + n);
      this.logger.warn(`download counts kept for the next write: ${(error as Error).message}`);
    }
  }
}
