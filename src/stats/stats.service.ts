import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { CatalogueReads } from '../database/catalogue-reads';
import { KindsService } from '../kinds/kinds.service';
import { RequestsRepository } from '../requests/requests.repository';
import type { StatsDto } from './dto/stats.dto';
import { toStatsDto } from './stats.mapper';
import { StatsRepository } from './stats.repository';

/** The spec's "cached for 60 seconds": per process, which is what a headline number needs. */
export const STATS_TTL_MS = 60_000;

@Injectable()
export class StatsService {
  private cached: { value: StatsDto; expiresAt: number } | null = null;
  /** One computation at a time: callers arriving while it runs share its answer. */
  private pending: Promise<StatsDto> | null = null;

  constructor(
    private readonly stats: StatsRepository,
    private readonly requests: RequestsRepository,
    private readonly kinds: KindsService,
    private readonly clock: Clock,
    private readonly reads: CatalogueReads,
  ) {}

  async headline(): Promise<StatsDto> {
    if (this.cached && this.clock.nowMs() < this.cached.expiresAt) return this.cached.value;
    this.pending ??= this.compute().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async compute(): Promise<StatsDto> {
    const [[totals, openRequests], kinds] = await Promise.all([
      this.reads.run((manager) => Promise.all([this.stats.catalogueTotals(manager), this.requests.countOpen(manager)])),
      this.kinds.publicList(),
    ]);
    const value = toStatsDto(totals, openRequests, kinds.kinds.length);
    this.cached = { value, expiresAt: this.clock.nowMs() + STATS_TTL_MS };
    return value;
  }
}
