import { Inject, Injectable } from '@nestjs/common';
import type { GuardedFetchOptions } from '../common/fetch';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { SettingsService } from '../settings/settings.service';

/**
 * The outbound-HTTP policy for pictures: the ingest's (DECISIONS 5: https only, FETCH_ALLOW_HOSTS
 * for http and private addresses, every hop vetted) with a byte cap of its own. A picture is
 * buffered whole to be decoded, where an asset streams through a hash, so its cap is the
 * `images.max_bytes` setting (10 MiB by default) rather than the asset hash budget, or less for
 * the README proxy (PROXY_MAX_BYTES). A provider of
 * its own so tests and deployments can replace it.
 */
@Injectable()
export class ImageFetchPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  /** The policy; `byteCap`, when given, lowers the byte cap below the setting (the README proxy's). */
  async options(byteCap = Number.POSITIVE_INFINITY): Promise<GuardedFetchOptions> {
    return {
      maxBytes: Math.min(await this.settings.get('images.max_bytes'), byteCap),
      allowHosts: this.config.fetchAllowHosts,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 30_000,
      totalTimeoutMs: 60_000,
      maxRedirects: 5,
    };
  }
}
