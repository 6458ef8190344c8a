import { denseSeries, type DayValue } from '../../lib/charts/days';
import type { DownloadSeriesDto } from './dto/downloads.dto';

/** Every one of `days` with its downloads (0 for a day without a row), and the total. */
export function toDownloadSeriesDto(
  slug: string,
  version: string | null,
  days: readonly string[],
  rows: readonly DayValue[],
): DownloadSeriesDto {
  const series = denseSeries(rows, days);
  return {
    slug,
    version,
    from: days[0],
    to: days[days.length - 1],
    total: series.reduce((sum, point) => sum + point.value, 0),
    series: series.map((point) => ({ day: point.day, downloads: point.value })),
  };
}
