import { Injectable, Logger } from '@nestjs/common';
import { type EncodedPicture, ICON_PLAN, type ImagePlan, SCREENSHOT_PLAN } from '../../catalogue/images/image-encoder';
import { ImageStore } from '../../catalogue/images/image-store';
import type { PictureHold } from '../../catalogue/images/picture-budget';
import { PictureFailure, PictureFetcher } from '../../catalogue/images/picture-fetcher';
import type { Manifest } from '../../lib/manifest';
import type { StoredImageVariant, StoredReleaseImages } from '../../catalogue/plugins/entities/release.entity';
import { ASSET_CONCURRENCY } from '../../platform/fetch-policy/fetch-policy';
import { mapBounded } from '../../common/map-bounded';

export interface FetchedReleaseImages {
  /** What the release row records. */
  images: StoredReleaseImages;
  /** The encodings, stored already as pending, that the release's transaction confirms. */
  encodings: string[];
  /** One per picture left out, for the publish response and the audit entry. */
  warnings: string[];
}

interface Job {
  name: string;
  url: string;
  plan: ImagePlan;
  screenshot?: { index: number; caption: string | null; alt: string | null };
}

/** A picture once its encodings are stored: what the release row names of them, without their bytes. */
type StoredPicture = StoredImageVariant[];

/**
 * The icon and screenshots a manifest names, fetched (ASSET_CONCURRENCY at a time, through the
 * SSRF-safe fetcher, each after its turn among all releases' pictures), checked by their bytes
 * and encoded as WebP at fixed widths. A picture that
 * fails (a 404, too large, not an image, an SVG) never fails the release: it is left out and
 * named in `warnings`; the page then shows nothing in its place. That includes a picture that
 * would pass the bounds on picture bytes held (per instance, per publisher), and a picture still
 * waiting for its turn once the release's pictures waited PICTURE_WAIT_MS. Each picture's
 * encodings are stored (pending, ImageStore) as soon as it is made and its bytes let go, so a
 * release holds no picture while the rest of it is fetched and recorded; the release's
 * transaction confirms them.
 */
@Injectable()
export class ReleaseImages {
  private readonly logger = new Logger('ReleaseImages');

  constructor(
    private readonly pictures: PictureFetcher,
    private readonly store: ImageStore,
  ) {}

  /** An account for one release's pictures, counted for `owner`; release it when the ingest ends. */
  hold(owner: string): PictureHold {
    return this.pictures.hold(owner);
  }

  async fetch(manifest: Manifest, hold: PictureHold, abandon?: AbortSignal): Promise<FetchedReleaseImages> {
    const jobs: Job[] = [];
    if (manifest.icon) jobs.push({ name: 'icon', url: manifest.icon, plan: ICON_PLAN });
    (manifest.screenshots ?? []).forEach((shot, index) =>
      jobs.push({
        name: `screenshot ${index + 1}`,
        url: shot.url,
        plan: SCREENSHOT_PLAN,
        screenshot: { index, caption: shot.caption ?? null, alt: shot.alt ?? null },
      }),
    );
    const patience = this.pictures.patience();
    const outcomes = await mapBounded(jobs, ASSET_CONCURRENCY, (job) => this.fetchOne(job, hold, patience, abandon));
    const images: StoredReleaseImages = { icon: null, screenshots: [] };
    const encodings: string[] = [];
    const warnings: string[] = [];
    outcomes.forEach((outcome, i) => {
      const job = jobs[i];
      if (typeof outcome === 'string') {
        warnings.push(outcome);
        return;
      }
      encodings.push(...outcome.map((variant) => variant.sha256));
      if (job.screenshot) images.screenshots.push({ ...job.screenshot, variants: outcome });
      else images.icon = { variants: outcome };
    });
    for (const warning of warnings) this.logger.warn(warning);
    return { images, encodings, warnings };
  }

  /** The stored picture, or the warning that says why there is none. A failure to store it (the database) fails the fetch. */
  private async fetchOne(
    job: Job,
    hold: PictureHold,
    patience: AbortSignal,
    abandon: AbortSignal | undefined,
  ): Promise<StoredPicture | string> {
    let picture: EncodedPicture;
    try {
      picture = await this.pictures.fetchInTurn(job.url, job.plan, hold, patience, abandon);
    } catch (error) {
      if (error instanceof PictureFailure) {
        return error.stage === 'refused'
          ? `${job.name} was left out: ${job.url} ${error.message}`
          : `${job.name} was left out: ${error.message}`;
      }
      this.logger.error(`${job.name} at ${job.url} failed unexpectedly`, error instanceof Error ? error.stack : String(error));
      return `${job.name} was left out: it could not be processed`;
    }
    await this.store.keepPending(picture.variants);
    hold.give(picture.variants.reduce((sum, variant) => sum + variant.bytes.length, 0));
    return picture.variants.map(({ width, height, sha256 }) => ({ width, height, sha256 }));
  }
}
