import { Inject, Injectable } from '@nestjs/common';
import type { GuardedFetchOptions } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { SettingsService } from '../../platform/settings/settings.service';

/** The README proxy's byte cap: the `images.max_bytes` setting, but never more than this (5 MiB). */
export const PROXY_MAX_BYTES = 5 * 1024 * 1024;

/** Whose picture is fetched: a release's icon or screenshot, or an image a README names, for the proxy. */
export type PictureSource = 'release' | 'readme-proxy';

/**
 * The outbound-HTTP policy for pictures: the ingest's (https only, every hop vetted)
 * with a byte cap of its own. A picture is buffered whole to be decoded, where an asset streams
 * through a hash, so its cap is the `images.max_bytes` setting (10 MiB by default) rather than the
 * asset hash budget, or less for the README proxy (PROXY_MAX_BYTES). A release's pictures may use
 * http and private addresses on FETCH_ALLOW_HOSTS, as its assets may; the proxy only on
 * IMAGE_PROXY_ALLOW_HOSTS, because anyone's README names what it fetches for anonymous visitors.
 * A provider of its own so tests and deployments can replace it.
 */
@Injectable()
export class ImageFetchPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  async options(source: PictureSource): Promise<GuardedFetchOptions> {
    const setting = await this.settings.get('images.max_bytes');
    const proxy = source === 'readme-proxy';
    return {
      maxBytes: proxy ? Math.min(setting, PROXY_MAX_BYTES) : setting,
      allowHosts: proxy ? this.config.imageProxyAllowHosts : this.config.fetchAllowHosts,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 30_000,
      totalTimeoutMs: 60_000,
      maxRedirects: 5,
    };
  }
}
