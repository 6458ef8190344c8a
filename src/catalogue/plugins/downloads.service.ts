import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/errors/domain-error';
import { daysEndingOn, utcDay } from '../../lib/charts/days';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { DownloadDaysRepository } from './download-days.repository';
import { DEFAULT_SERIES_DAYS, type DownloadSeriesDto, type DownloadsQueryDto } from './dto/downloads.dto';
import { toDownloadSeriesDto } from './downloads.mapper';
import { PluginsRepository } from './plugins.repository';
import { ReleasesRepository } from './releases.repository';
import { versionKey } from './versions';

/** Downloads per UTC day, of a plugin or one of its releases: the plugin page's chart and any client's. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly days: DownloadDaysRepository,
    private readonly reads: CatalogueReads,
    private readonly clock: Clock,
  ) {}

  async series(slug: string, query: DownloadsQueryDto): Promise<DownloadSeriesDto> {
    const days = daysEndingOn(utcDay(this.clock.now()), query.days ?? DEFAULT_SERIES_DAYS);
    const from = days[0];
    const to = days[days.length - 1];
    return this.reads.run(async (manager) => {
      const plugin = await this.plugins.findBySlug(slug, manager);
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      if (query.version === undefined)
        return toDownloadSeriesDto(plugin.slug, null, days, await this.days.pluginDays(plugin.id, from, to, manager));
      const release = await this.releases.findByVersionKey(plugin.id, versionKey(query.version), manager);
      if (!release) throw notFound(`no release ${query.version} of "${slug}"`);
      return toDownloadSeriesDto(plugin.slug, release.version, days, await this.days.releaseDays(release.id, from, to, manager));
    });
  }
}
