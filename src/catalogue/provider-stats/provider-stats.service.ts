import { Injectable, Logger } from '@nestjs/common';
import { SharedCaches } from '../../common/shared-cache/shared-caches';
import type { SharedTtlCache } from '../../common/shared-cache/shared-ttl-cache';
import { notFound } from '../../common/errors/domain-error';
import { forgeAdapter } from '../../platform/forges/adapters';
import { NO_PROVIDER_STATS, type ProviderStats } from '../../platform/forges/forge-adapter';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { readRepositoryDocument } from '../../platform/forges/repository-document';
import { AssetFetchError } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import { forgeForUrl } from '../../platform/forges/urls';
import { PluginsRepository } from '../plugins/plugins.repository';
import type { ProviderStatsDto } from './dto/provider-stats.dto';

/** The spec's provider stats cache. */
export const PROVIDER_STATS_TTL_MS = 10 * 60_000;

/**
 * `GET /api/plugins/:slug/stats`, read lazily from the forge that hosts the plugin's repository
 * (chosen by its URL) and cached for 10 minutes per plugin, shared by every instance (Redis when
 * REDIS_URL is set). However many clients ask one instance at once, one upstream call runs per
 * plugin; the others wait for its answer. An unreachable
 * forge, a private repository or a host that is no configured forge gives nulls, cached too, so a
 * forge that is down is not asked again on every request.
 */
@Injectable()
export class ProviderStatsService {
  private readonly logger = new Logger('ProviderStats');
  private readonly cache: SharedTtlCache<ProviderStats>;

  constructor(
    private readonly plugins: PluginsRepository,
    private readonly forges: ForgeRegistry,
    private readonly policy: FetchPolicy,
    caches: SharedCaches,
  ) {
    this.cache = caches.open('provider-stats', PROVIDER_STATS_TTL_MS);
  }

  async stats(slug: string): Promise<ProviderStatsDto> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return { ...(await this.cache.get(plugin.id, () => this.fetch(plugin.repoUrl))) };
  }

  private async fetch(repoUrl: string): Promise<ProviderStats> {
    const located = forgeForUrl(repoUrl, this.forges.all());
    if (!located) return NO_PROVIDER_STATS;
    try {
      const document = await readRepositoryDocument(located, located.forge.token, { ...this.policy.text(), totalTimeoutMs: 10_000 });
      return forgeAdapter(located.forge.type).providerStats(document);
    } catch (error) {
      const reason = error instanceof AssetFetchError ? error.message : 'the answer was not JSON';
      this.logger.warn(`stats of ${located.repoPath} on ${located.forge.name} unavailable: ${reason}`);
      return NO_PROVIDER_STATS;
    }
  }
}
