import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EncodedImage } from '../images/image-encoder';
import { ImagesRepository } from '../images/images.repository';
import { ReadmeIngest } from '../ingest/readme-ingest';
import { README_RENDER_VERSION } from '../ingest/readme/render-readme';
import { sha256Hex } from '../lib/integrity';
import type { UpstreamReader } from '../lib/mirror';
import type { StoredImageVariant, StoredReleaseImages } from '../plugins/entities/release.entity';
import type { ReadmeRendering } from '../plugins/release-readmes.repository';
import { versionKey } from '../plugins/versions';
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

function isWebp(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';
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
  ) {}

  /** True when upstream's plugin page shows this version (its manifest fields are that release's). */
  shows(detail: UpstreamPlugin, version: string): boolean {
    const shown = detail.metadata?.version;
    return typeof shown === 'string' && versionKey(shown) === versionKey(version);
  }

  async read(upstream: string, detail: UpstreamPlugin): Promise<UpstreamPresentation> {
    const encodings: EncodedImage[] = [];
    const icon = detail.images?.icon ? await this.picture(upstream, detail.slug, 'icon', detail.images.icon, encodings) : null;
    const screenshots: StoredReleaseImages['screenshots'] = [];
    for (const shot of (Array.isArray(detail.images?.screenshots) ? detail.images.screenshots : []).slice(0, MAX_SCREENSHOTS)) {
      if (!Number.isInteger(shot?.index) || shot.index < 0) continue;
      const variants = await this.picture(upstream, detail.slug, `screenshot ${shot.index + 1}`, shot, encodings);
      if (variants) screenshots.push({ index: shot.index, caption: textOrNull(shot.caption), alt: textOrNull(shot.alt), variants: variants.variants });
    }
    return { readmes: await this.readmes(upstream, detail), images: { icon, screenshots }, encodings };
  }

  /** One picture's encodings, each read and checked; null (the picture left out) when one does not check out. */
  private async picture(upstream: string, slug: string, what: string, picture: UpstreamPicture, encodings: EncodedImage[]): Promise<{ variants: StoredImageVariant[] } | null> {
    const listed = Array.isArray(picture.variants) ? picture.variants : [];
    if (listed.length === 0 || listed.length > MAX_VARIANTS) return this.leftOut(slug, what, `${listed.length} encodings`);
    const named = listed.map((variant) => (typeof variant?.url === 'string' ? IMAGE_PATH.exec(variant.url)?.[1] : undefined));
    const stored = await this.images.storedAmong(named.filter((sha256): sha256 is string => sha256 !== undefined));
    const variants: StoredImageVariant[] = [];
    const read: EncodedImage[] = [];
    for (const [at, variant] of listed.entries()) {
      const sha256 = named[at];
      if (!sha256 || !dimension(variant.width) || !dimension(variant.height)) return this.leftOut(slug, what, 'not an upstream picture address and size');
      // Stored here already under its hash (copied before, or the same picture ingested here): nothing to read.
      if (stored.has(sha256)) {
        variants.push({ width: variant.width, height: variant.height, sha256 });
        continue;
      }
      const bytes = Buffer.from(await this.reader.bytes(`${upstream}/images/${sha256}.webp`));
      if (sha256Hex(bytes) !== sha256) return this.leftOut(slug, what, `the bytes of ${variant.url} do not have the SHA-256 that names them`);
      if (!isWebp(bytes)) return this.leftOut(slug, what, `${variant.url} is not WebP`);
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

  private async readmes(upstream: string, detail: UpstreamPlugin): Promise<Record<string, ReadmeRendering>> {
    const locales = Array.isArray(detail.readmeAvailableLocales) ? detail.readmeAvailableLocales.filter((l): l is string => typeof l === 'string') : [];
    const html: Record<string, string> = {};
    if (locales.length === 0) {
      if (typeof detail.readmeHtml === 'string') html.default = detail.readmeHtml;
    } else {
      for (const locale of locales) {
        const one = (await this.reader.json(`${upstream}/api/plugins/${encodeURIComponent(detail.slug)}?locale=${encodeURIComponent(locale)}`)) as UpstreamPlugin;
        if (one.readmeLocale === locale && typeof one.readmeHtml === 'string' && this.shows(one, String(detail.metadata?.version))) html[locale] = one.readmeHtml;
      }
    }
    const readmes: Record<string, ReadmeRendering> = {};
    for (const [locale, upstreamHtml] of Object.entries(html)) {
      // No markdown: a mirrored README can only ever be sanitized again, never rendered.
      readmes[locale] = { html: await this.readmeIngest.rerender({ html: upstreamHtml, markdown: null, context: null }), markdown: null, context: null, renderVersion: README_RENDER_VERSION };
    }
    return readmes;
  }
}
