import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import type { AssetFetchOptions, GuardedFetchOptions } from '../../common/fetch';
import { SettingsService } from '../settings/settings.service';

/** A hard ceiling on any one asset's bytes, hashed or not, so a server that streams forever ends. */
export const MAX_ASSET_BYTES = 8 * 1024 ** 3;
export const MAX_TEXT_BYTES = 1024 * 1024;
export const ASSET_CONCURRENCY = 3;

/**
 * The outbound-HTTP policy for ingest
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch). A provider of its own
 * so tests and deployments can replace it (DNS, timeouts) without touching the pipeline.
 */
@Injectable()
export class FetchPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  base(): GuardedFetchOptions {
    return {
      maxBytes: MAX_ASSET_BYTES,
      allowHosts: this.config.fetchAllowHosts,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 30_000,
      totalTimeoutMs: 15 * 60_000,
      maxRedirects: 5,
    };
  }

  async assets(): Promise<AssetFetchOptions & { concurrency: number }> {
    return { ...this.base(), budgetBytes: await this.settings.get('hash.budget_bytes'), concurrency: ASSET_CONCURRENCY };
  }

  text(): GuardedFetchOptions {
    return { ...this.base(), maxBytes: MAX_TEXT_BYTES, totalTimeoutMs: 30_000 };
  }
}
