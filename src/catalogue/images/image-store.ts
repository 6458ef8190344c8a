import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { EncodedImage } from './image-encoder';
import { ImagesRepository } from './images.repository';

/**
 * How long a picture stored during an ingest waits for its release to be recorded. Far longer
 * than any ingest runs (each fetch has its own deadline), so a release never names a picture that
 * was deleted under it; each later store of the same picture extends it.
 */
export const PENDING_PICTURE_MS = 24 * 3600 * 1000;
/** How often one instance deletes the pending pictures whose ingest failed, at most (when it stores pictures). */
export const PENDING_SWEEP_INTERVAL_MS = 3600 * 1000;

/**
 * Where an ingest's pictures go as soon as each is encoded, so that no instance holds a release's
 * encodings until the release is recorded: stored as pending, confirmed by the release's
 * transaction or a manifest refresh (ImagesRepository.confirm), and deleted later if nothing
 * confirmed them (the release failed after its pictures were made). The deletion runs when
 * pictures are stored, at most every PENDING_SWEEP_INTERVAL_MS, since only an ingest leaves
 * pending pictures behind.
 */
@Injectable()
export class ImageStore {
  private readonly logger = new Logger('Images');
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly images: ImagesRepository,
    private readonly clock: Clock,
  ) {}

  /** Stores a picture's encodings as pending; the caller can then let go of their bytes. */
  async keepPending(encodings: readonly EncodedImage[]): Promise<void> {
    const now = this.clock.now();
    await this.images.putPending(encodings, new Date(now.getTime() + PENDING_PICTURE_MS));
    if (now.getTime() - this.lastSweep >= PENDING_SWEEP_INTERVAL_MS) {
      this.lastSweep = now.getTime();
      const deleted = await this.images.deleteExpiredPending(now);
      if (deleted > 0) this.logger.log(`deleted ${deleted} stored picture encoding(s) whose release was never recorded`);
    }
  }
}
