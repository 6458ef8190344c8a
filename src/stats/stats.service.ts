import { Injectable } from '@nestjs/common';
import { SharedCaches } from '../common/shared-cache/shared-caches';
import type { SharedTtlCache } from '../common/shared-cache/shared-ttl-cache';
import { CatalogueReads } from '../persistence/catalogue-reads';
import { KindsService } from '../kinds/kinds.service';
import { RequestsRepository } from '../requests/requests.repository';
import type { StatsDto } from './dto/stats.dto';
import { toStatsDto } from './stats.mapper';
import { StatsRepository } from './stats.repository';

/** The spec's "cached for 60 seconds", shared by every instance (Redis when REDIS_URL is set). */
export const STATS_TTL_MS = 60_000;

@Injectable()
export class StatsService {
  private readonly cache: SharedTtlCache<StatsDto>;

  constructor(
    private readonly stats: StatsRepository,
    private readonly requests: RequestsRepository,
    private readonly kinds: KindsService,
    private readonly reads: CatalogueReads,
    caches: SharedCaches,
  ) {
    this.cache = caches.open('stats', STATS_TTL_MS);
  }

  headline(): Promise<StatsDto> {
    return this.cache.get('headline', () => this.compute());
  }

  private async compute(): Promise<StatsDto> {
    const [[totals, openRequests], kinds] = await Promise.all([
      this.reads.run((manager) => Promise.all([this.stats.catalogueTotals(manager), this.requests.countOpen(manager)])),
      this.kinds.publicList(),
    ]);
    return toStatsDto(totals, openRequests, kinds.kinds.length);
  }
}
