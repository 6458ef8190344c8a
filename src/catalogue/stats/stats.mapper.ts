import type { StatsDto } from './dto/stats.dto';
import type { CatalogueTotals } from './stats.repository';

export function toStatsDto(totals: CatalogueTotals, openRequests: number, enabledKinds: number): StatsDto {
  return { plugins: totals.plugins, downloads: totals.downloads, authors: totals.authors, requests: openRequests, kinds: enabledKinds };
}
