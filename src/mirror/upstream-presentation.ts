import { Inject, Injectable, Logger } from '@nestjs/common';
import { AssetFetchError } from '../common/fetch';
import { checkWebpEncoding, type EncodedImage } from '../catalogue/images/image-encoder';
import { ImagesRepository } from '../catalogue/images/images.repository';
import { MAX_README_HTML_BYTES, ReadmeIngest } from '../publishing/ingest/readme-ingest';
import { README_RENDER_VERSION } from '../platform/markdown/render-readme';
import { sha256Hex } from '../lib/integrity';
import { MAX_README_LOCALES, README_LOCALE_PATTERN } from '../lib/manifest';
import type { UpstreamReader } from '../lib/mirror';
import type { StoredImageVariant, StoredReleaseImages } from '../catalogue/plugins/entities/release.entity';
import type { ReadmeRendering } from '../catalogue/plugins/release-readmes.repository';
import { versionKey } from '../catalogue/plugins/versions';
import { SettingsService } from '../platform/settings/settings.service';
import type { UpstreamPicture, UpstreamPlugin } from './mirrored-plugin';
import { UPSTREAM_READER } from './upstream-fetch';

/** What a mirror shows of a release besides its signed bytes: upstream's README renderings and pictures. */
export interface UpstreamPresentation {
  /** By locale, in upstream's order (`default` for a single-language README); empty when none. */
  readmes: Record<string, ReadmeRendering>;
  images: StoredReleaseImages;
  /** The encodings `images` names, each checked against the SHA-256 that names it. */
  encodings: EncodedImage[];
}

/** Upstream's picture addresses: content-addressed, so the name is the digest the bytes must have. */
const IMAGE_PATH = /^\/images\/([0-9a-f]{64})\.webp$/;
/** Upstream encodes an icon at 3 widths and a screenshot at 2; a few more are tolerated, not unbounded. */
const MAX_VARIANTS = 4;
const MAX_SCREENSHOTS = 20;
/** All the picture bytes read from upstream for one release (each encoding is capped by `images.max_bytes` too). */
export const MAX_RELEASE_PICTURE_BYTES = 32 * 1024 * 1024;
const README_LOCALE = new RegExp(README_LOCALE_PATTERN.source);

/** What is left of a release's picture bytes. */
interface PictureBudget {
  perEncoding: number;
  left: number;
}

const dimension = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= 16_384;
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, 500) : null);

/**
 * Reads what upstream shows publicly of the release its plugin page shows, to show the same.
 * Upstream serves a README as rendered, sanitized HTML for the shown release only
 * (`GET /api/plugins/:slug`, `?locale=` for each language), so it is taken only when the release
 * being copied is that one; served from this origin, it goes through this registry's sanitizer
 * again (which also signs its proxied images with this registry's key). Pictures are named by
 * the SHA-256 of their bytes: each is read from upstream and kept only when its bytes have it.
 */
@Injectable()
export class UpstreamPresentationReader {
  private readonly logger = new Logger('Mirror');

  constructor(
    @Inject(UPSTREAM_READER) private readonly reader: UpstreamReader,
    private readonly readmeIngest: ReadmeIngest,
    private readonly images: ImagesRepository,
    private readonly settings: SettingsService,
  ) {}

  /** True when upstream's plugin page shows this version (its manifest fields are that release's). */
  shows(detail: UpstreamPlugin, version: string): boolean {
    const shown = detail.metadata?.version;
    return typeof shown === 'string' && versionKey(shown) === versionKey(version);
  }

  async read(upstream: string, detail: UpstreamPlugin): Promise<UpstreamPresentation> {
    const encodings: EncodedImage[] = [];
    const budget: PictureBudget = { perEncoding: await this.settings.get('images.max_bytes'), left: MAX_RELEASE_PICTURE_BYTES };
    const icon = detail.images?.icon ? await this.picture(upstream, detail.slug, 'icon', detail.images.icon, encodings, budget) : null;
    const screenshots: StoredReleaseImages['screenshots'] = [];
    for (const shot of (Array.isArray(detail.images?.screenshots) ? detail.images.screenshots : []).slice(0, MAX_SCREENSHOTS)) {
      if (!Number.isInteger(shot?.index) || shot.index < 0) continue;
      const variants = await this.picture(upstream, detail.slug, `screenshot ${shot.index + 1}`, shot, encodings, budget);
      if (variants)
        screenshots.push({ index: shot.index, caption: textOrNull(shot.caption), alt: textOrNull(shot.alt), variants: variants.variants });
    }
    return { readmes: await this.readmes(upstream, detail), images: { icon, screenshots }, encodings };
  }

  /**
   * One picture's encodings, each read and checked as ingest checks a picture (decoded in full
   * with its bounds, WebP of the size upstream gives); null (the picture left out, a warning)
   * when one does not check out.
   */
  private async picture(
    upstream: string,
    slug: string,
    what: string,
    picture: UpstreamPicture,
    encodings: EncodedImage[],
    budget: PictureBudget,
  ): Promise<{ variants: StoredImageVariant[] } | null> {
    const listed = Array.isArray(picture.variants) ? picture.variants : [];
    if (listed.length === 0 || listed.length > MAX_VARIANTS) return this.leftOut(slug, what, `${listed.length} encodings`);
    const named = listed.map((variant) => (typeof variant?.url === 'string' ? IMAGE_PATH.exec(variant.url)?.[1] : undefined));
    const stored = await this.images.storedAmong(named.filter((sha256): sha256 is string => sha256 !== undefined));
    const variants: StoredImageVariant[] = [];
    const read: EncodedImage[] = [];
    for (const [at, variant] of listed.entries()) {
      const sha256 = named[at];
      if (!sha256 || !dimension(variant.width) || !dimension(variant.height))
        return this.leftOut(slug, what, 'not an upstream picture address and size');
      // Stored here already under its hash (copied before, or the same picture ingested here): nothing to read.
      if (stored.has(sha256)) {
        variants.push({ width: variant.width, height: variant.height, sha256 });
        continue;
      }
      const cap = Math.min(budget.perEncoding, budget.left);
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await this.reader.bytes(`${upstream}/images/${sha256}.webp`, cap));
      } catch (error) {
        if (!(error instanceof AssetFetchError && error.reason === 'too-large')) throw error;
        const limit =
          cap < budget.perEncoding
            ? `what is left of the release's ${MAX_RELEASE_PICTURE_BYTES} picture bytes`
            : `images.max_bytes (${budget.perEncoding})`;
        return this.leftOut(slug, what, `${variant.url} is larger than ${limit}`);
      }
      budget.left -= bytes.length;
      if (sha256Hex(bytes) !== sha256)
        return this.leftOut(slug, what, `the bytes of ${variant.url} do not have the SHA-256 that names them`);
      const wrong = await checkWebpEncoding(bytes, variant.width, variant.height);
      if (wrong) return this.leftOut(slug, what, `${variant.url} ${wrong}`);
      variants.push({ width: variant.width, height: variant.height, sha256 });
      read.push({ sha256, width: variant.width, height: variant.height, bytes });
    }
    encodings.push(...read);
    return { variants };
  }

  private leftOut(slug: string, what: string, why: string): null {
    this.logger.warn(`${slug}: upstream's ${what} was left out: ${why}`);
    return null;
  }

  /**
   * Upstream's README renderings, bounded as ingest bounds a manifest's: locale codes of its
   * pattern only, each once, at most MAX_README_LOCALES of them, and MAX_README_HTML_BYTES of HTML
   * for the release. What falls outside, or cannot be read, is left out with a warning.
   */
  private async readmes(upstream: string, detail: UpstreamPlugin): Promise<Record<string, ReadmeRendering>> {
    const listed = Array.isArray(detail.readmeAvailableLocales) ? detail.readmeAvailableLocales : [];
    const valid = [...new Set(listed.filter((l): l is string => typeof l === 'string' && README_LOCALE.test(l)))];
    const locales = valid.slice(0, MAX_README_LOCALES);
    if (locales.length < listed.length)
      this.logger.warn(
        `${detail.slug}: ${listed.length - locales.length} of upstream's ${listed.length} README locales left out (invalid, repeated or beyond ${MAX_README_LOCALES})`,
      );
    const html: Record<string, string> = {};
    if (listed.length === 0) {
      if (typeof detail.readmeHtml === 'string') html.default = detail.readmeHtml;
    } else {
      for (const locale of locales) {
        try {
          const one = (await this.reader.json(
            `${upstream}/api/plugins/${encodeURIComponent(detail.slug)}?locale=${encodeURIComponent(locale)}`,
          )) as UpstreamPlugin;
          if (one.readmeLocale === locale && typeof one.readmeHtml === 'string' && this.shows(one, String(detail.metadata?.version)))
            html[locale] = one.readmeHtml;
        } catch (error) {
          this.logger.warn(`${detail.slug}: upstream's README (${locale}) could not be read, left out: ${(error as Error).message}`);
        }
      }
    }
    const readmes: Record<string, ReadmeRendering> = {};
    let left = MAX_README_HTML_BYTES;
    for (const [locale, upstreamHtml] of Object.entries(html)) {
      if (Buffer.byteLength(upstreamHtml) > left) {
        this.logger.warn(
          `${detail.slug}: upstream's README (${locale}) left out: a release's READMEs may total at most ${MAX_README_HTML_BYTES} bytes of HTML`,
        );
        continue;
      }
      // No markdown: a mirrored README can only ever be sanitized again, never rendered.
      const sanitized = await this.readmeIngest.rerender({ html: upstreamHtml, markdown: null, context: null });
      const size = Buffer.byteLength(sanitized);
      if (size > left) {
        this.logger.warn(
          `${detail.slug}: upstream's README (${locale}) left out: a release's READMEs may total at most ${MAX_README_HTML_BYTES} bytes of HTML`,
        );
        continue;
      }
      left -= size;
      readmes[locale] = { html: sanitized, markdown: null, context: null, renderVersion: README_RENDER_VERSION };
    }
    return readmes;
  }
}
