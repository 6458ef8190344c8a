import { Injectable } from '@nestjs/common';
import { SharedCaches } from '../../common/shared-cache/shared-caches';
import type { SharedTtlCache } from '../../common/shared-cache/shared-ttl-cache';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { KindsService } from '../kinds/kinds.service';
import { RequestsRepository } from '../requests/requests.repository';
import type { StatsDto } from './dto/stats.dto';
import type { CatalogueTotals } from './stats.repository';
import { toStatsDto } from './stats.mapper';
import { StatsRepository } from './stats.repository';

/**
 * The spec's "cached for 60 seconds", shared by every instance (Redis when REDIS_URL is set): the
 * catalogue's aggregates (a pass over every plugin) are kept that long, but under the catalogue
 * change log's position, so a publish, a delete or a download counted shows in the next answer.
 */
export const STATS_TTL_MS = 60_000;

@Injectable()
export class StatsService {
  private readonly cache: SharedTtlCache<CatalogueTotals>;

  constructor(
    private readonly stats: StatsRepository,
    private readonly requests: RequestsRepository,
    private readonly kinds: KindsService,
    private readonly reads: CatalogueReads,
    caches: SharedCaches,
  ) {
    this.cache = caches.open('stats', STATS_TTL_MS);
  }

  /**
   * The figures as of now: the catalogue's from the cache entry of the change log's current
   * position (what the catalogue index follows too: every write to a plugin's listed columns logs
   * a change, on any instance), the wishlist's and the kinds' (small tables) read each time.
   */
  async headline(): Promise<StatsDto> {
    const [[position, openRequests], kinds] = await Promise.all([
      this.reads.run((manager) => Promise.all([this.stats.cataloguePosition(manager), this.requests.countOpen(manager)])),
      this.kinds.publicList(),
    ]);
    const totals = await this.cache.get(`totals:${position}`, () => this.reads.run((manager) => this.stats.catalogueTotals(manager)));
    return toStatsDto(totals, openRequests, kinds.kinds.length);
  }
}
