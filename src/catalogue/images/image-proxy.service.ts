import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DomainError, upstreamFailed } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { PROXY_PLAN } from './image-encoder';
import { ImagesRepository, type ProxyEntry, type StoredImage, WEBP } from './images.repository';
import { PictureFailure, PictureFetcher } from './picture-fetcher';
import { GateFull, PictureGate } from './picture-gate';
import { imageProxyKey, isSignedImageUrl } from '../../platform/markdown/proxy-signature';

/** How long a proxied README image is kept before it is fetched again. */
export const PROXY_TTL_MS = 24 * 3600 * 1000;
/** How long a failed fetch (image-refused, image-fetch-failed) is answered again without fetching. */
export const PROXY_FAILURE_TTL_MS = 10 * 60 * 1000;
/** Upstream fetches the proxy runs at once in this process; each buffers up to PROXY_MAX_BYTES. */
export const PROXY_FETCHES_AT_ONCE = 4;
/** Fetches that may wait for one of those; past that, requests are answered 503 image-proxy-busy. */
export const PROXY_FETCHES_WAITING = 32;
/**
 * The public detail of every failed fetch. Why it failed (a refused loopback address, a name that
 * does not resolve, an upstream's 404) would tell an anonymous caller how names resolve and what
 * answers inside the network, so that goes to the log only.
 */
export const PROXY_FETCH_FAILED_DETAIL = 'the image could not be fetched';
/** The owner the README proxy's pictures are counted for (user owners are `user:<id>`). */
const PROXY_OWNER = 'image-proxy';
/** What Retry-After says when the proxy is busy, in seconds. */
export const PROXY_BUSY_RETRY_AFTER_S = 5;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * `GET /image-proxy?url=&sig=`: a README's image, shown from this origin. Only URLs a rendered
 * README named are fetched (their HMAC, checked in constant time, is in the address); the
 * picture goes through the same fetch policy and byte checks as icons (with a byte cap of at most
 * PROXY_MAX_BYTES), is re-encoded as WebP (at most 1280 px wide, no metadata) and kept in
 * `image_proxy_entry` for PROXY_TTL_MS, so every instance answers from the database. A failure is
 * kept there too, for PROXY_FAILURE_TTL_MS, and answered again without fetching. Concurrent
 * requests for one URL share one fetch; at most PROXY_FETCHES_AT_ONCE fetches run in the process,
 * PROXY_FETCHES_WAITING more wait, and past that a request is answered 503 with Retry-After, as
 * is one whose picture would pass the bounds on picture bytes held (PictureBudget).
 */
@Injectable()
export class ImageProxyService {
  private readonly logger = new Logger('ImageProxy');
  private readonly key: Buffer;
  private readonly inFlight = new Map<string, Promise<StoredImage>>();
  private readonly fetches = new PictureGate(PROXY_FETCHES_AT_ONCE, PROXY_FETCHES_WAITING);

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
    if (cached) return answer(cached);
    let pending = this.inFlight.get(urlSha256);
    if (!pending) {
      pending = this.fetchAndKeep(url, urlSha256).finally(() => this.inFlight.delete(urlSha256));
      this.inFlight.set(urlSha256, pending);
    }
    return pending;
  }

  private async fetchAndKeep(url: string, urlSha256: string): Promise<StoredImage> {
    let entry: ProxyEntry;
    // Every visitor's images count as one owner's against the picture bounds.
    const hold = this.fetcher.hold(PROXY_OWNER);
    try {
      entry = await this.fetches.run(async () => {
        try {
          const variant = (await this.fetcher.fetch(url, PROXY_PLAN, hold, undefined, 'readme-proxy')).variants.at(-1)!;
          return { image: { sha256: variant.sha256, contentType: WEBP, bytes: variant.bytes } };
        } catch (error) {
          // Past the bound on picture bytes held, the proxy is busy: answered below, not remembered.
          if (!(error instanceof PictureFailure) || error.stage === 'held') throw error;
          const host = hostOf(url);
          if (error.stage === 'fetch') {
            // The host only: a URL's path or query may carry a token.
            this.logger.warn(`README image at ${host} could not be fetched: ${error.message}`);
            return { failure: 'image-fetch-failed', detail: PROXY_FETCH_FAILED_DETAIL };
          }
          return { failure: 'image-refused', detail: `the image at ${host} ${error.message}` };
        }
      });
    } catch (error) {
      if (error instanceof GateFull || (error instanceof PictureFailure && error.stage === 'held')) {
        throw new DomainError(
          'unavailable',
          'image-proxy-busy',
          'the image proxy is fetching as many images as it may at once; try again shortly',
          undefined,
          {
            retryAfter: PROXY_BUSY_RETRY_AFTER_S,
          },
        );
      }
      throw error;
    } finally {
      hold.release();
    }
    const now = this.clock.now();
    const ttl = 'image' in entry ? PROXY_TTL_MS : PROXY_FAILURE_TTL_MS;
    await this.images.putProxied(urlSha256, entry, now, new Date(now.getTime() + ttl));
    return answer(entry);
  }
}

/** The picture, or the problem the fetch ended with (the same whether just fetched or remembered). */
function answer(entry: ProxyEntry): StoredImage {
  if ('image' in entry) return entry.image;
  if (entry.failure === 'image-fetch-failed') throw upstreamFailed('image-fetch-failed', entry.detail);
  throw new DomainError('invalid', 'image-refused', entry.detail);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}
