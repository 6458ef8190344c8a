import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { SettingsService } from '../../platform/settings/settings.service';

/** What a refused push is told: an ingest takes seconds, so a few seconds on a slot frees up. */
export const INGEST_BUSY_RETRY_AFTER_S = 10;

/**
 * Bounds the synchronous ingests (pushes) this instance runs at once, in all and per user
 * (settings `ingest.max_concurrent`, `ingest.max_concurrent_per_user`); the excess is refused at
 * once with 429 and Retry-After rather than queued behind a fetch of unknown length. Webhook
 * deliveries are not counted here: the delivery worker runs a bounded number of its own.
 */
@Injectable()
export class IngestGate {
  private running = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly settings: SettingsService) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const [instanceCap, userCap] = await Promise.all([
      this.settings.get('ingest.max_concurrent'),
      this.settings.get('ingest.max_concurrent_per_user'),
    ]);
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= userCap) throw busy(`you have ${mine} push(es) being ingested already, the most one user may run at once`);
    if (this.running >= instanceCap) throw busy(`this instance is ingesting ${this.running} push(es), as many as it runs at once`);
    this.running += 1;
    this.perUser.set(userId, mine + 1);
    try {
      return await work();
    } finally {
      this.running -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    }
  }
}

function busy(why: string): DomainError {
  return new DomainError('rate-limited', 'ingest-busy', `${why}; try again in ${INGEST_BUSY_RETRY_AFTER_S} s`, undefined, {
    retryAfter: INGEST_BUSY_RETRY_AFTER_S,
  });
}
