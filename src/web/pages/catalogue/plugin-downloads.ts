import type { components } from '../../../client/registry-client';
import { dayChart, intlLocale } from '../../components/day-chart';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';

export type DownloadSeries = components['schemas']['DownloadSeriesDto'];

/** The days the plugin page's chart covers. */
export const PLUGIN_CHART_DAYS = 90;

/** The plugin page's downloads per day (GET /api/plugins/:slug/downloads), drawn on the server; nothing when the series could not be read. */
export function downloadsChartSection(name: string, downloads: DownloadSeries | null, locale: string, t: Translate): SafeHtml | null {
  if (!downloads) return null;
  const days = downloads.series.length;
  return html`<section aria-labelledby="downloads-chart-heading" class="downloads-chart">
<h2 id="downloads-chart-heading">${t('downloads.chart.heading', { days })}</h2>
${dayChart(
  downloads.series.map((point) => ({ day: point.day, value: point.downloads })),
  {
    id: 'downloads-chart',
    title: t('downloads.chart.title', { name }),
    valueLabel: t('downloads.chart.value'),
    summary: t('downloads.chart.summary', { days, total: new Intl.NumberFormat(intlLocale(locale)).format(downloads.total) }),
    locale,
    t,
  },
)}
</section>`;
}
