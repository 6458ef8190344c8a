import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainError, upstreamFailed } from '../common/errors/domain-error';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { PROXY_PLAN } from './image-encoder';
import { ImagesRepository, type StoredImage, WEBP } from './images.repository';
import { PictureFailure, PictureFetcher } from './picture-fetcher';
import { imageProxyKey, isSignedImageUrl } from './proxy-signature';

/** How long a proxied README image is kept before it is fetched again. */
export const PROXY_TTL_MS = 24 * 3600 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * `GET /image-proxy?url=&sig=`: a README's image, shown from this origin. Only URLs a rendered
 * README named are fetched (their HMAC, checked in constant time, is in the address); the
 * picture goes through the same fetch policy and byte checks as icons, is re-encoded as WebP
 * (at most 1280 px wide, no metadata) and kept in `image_proxy_entry` for PROXY_TTL_MS, so every
 * instance answers from the database. Concurrent requests for one URL share one fetch.
 */
@Injectable()
export class ImageProxyService {
  private readonly key: Buffer;
  private readonly inFlight = new Map<string, Promise<StoredImage>>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly images: ImagesRepository,
    private readonly fetcher: PictureFetcher,
    private readonly clock: Clock,
  ) {
    this.key = imageProxyKey(config.keyEncryptionKey);
  }

  async proxied(url: unknown, sig: unknown): Promise<StoredImage> {
    if (typeof url !== 'string' || typeof sig !== 'string' || !isSignedImageUrl(this.key, url, sig)) {
      throw new DomainError('forbidden', 'image-signature-invalid', 'this image address was not signed by this registry');
    }
    const urlSha256 = sha256(url);
    const cached = await this.images.findProxied(urlSha256, this.clock.now());
    if (cached) return cached;
    let pending = this.inFlight.get(urlSha256);
    if (!pending) {
      pending = this.fetchAndKeep(url, urlSha256).finally(() => this.inFlight.delete(urlSha256));
      this.inFlight.set(urlSha256, pending);
    }
    return pending;
  }

  private async fetchAndKeep(url: string, urlSha256: string): Promise<StoredImage> {
    let variant;
    try {
      variant = (await this.fetcher.fetch(url, PROXY_PLAN)).variants.at(-1)!;
    } catch (error) {
      if (error instanceof PictureFailure) {
        const host = hostOf(url);
        if (error.stage === 'fetch') throw upstreamFailed('image-fetch-failed', `the image at ${host} could not be fetched: ${error.message}`);
        throw new DomainError('invalid', 'image-refused', `the image at ${host} ${error.message}`);
      }
      throw error;
    }
    const image: StoredImage = { sha256: variant.sha256, contentType: WEBP, bytes: variant.bytes };
    const now = this.clock.now();
    await this.images.putProxied(urlSha256, image, now, new Date(now.getTime() + PROXY_TTL_MS));
    return image;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}
