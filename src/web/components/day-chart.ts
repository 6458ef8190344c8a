import { barChartSvg } from '../../lib/charts/bar-chart';
import { dayStartMs, type DayValue } from '../../lib/charts/days';
import { summarize } from '../../lib/charts/summary';
import { html, raw, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';

export interface DayChartOptions {
  /** Unique on the page (letters, digits, dashes): the drawing's ids hang off it. */
  id: string;
  /** The chart's accessible name, and the hidden table's caption. */
  title: string;
  /** The value column's heading in the hidden table ("Downloads"). */
  valueLabel: string;
  /** The visible sentence under the chart, before the busiest day ("Downloads in the last 90 days: 1,234."). */
  summary: string;
  locale: string;
  t: Translate;
}

/** The locale if Intl knows it, else English (a site locale is any BCP 47 tag an admin enabled). */
export function intlLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length ? locale : 'en';
  } catch {
    return 'en';
  }
}

/** A day as people read it in the page's language, in UTC (the series' days are UTC days). */
function dayFormatter(locale: string, style: 'short' | 'long'): (day: string) => string {
  const format = new Intl.DateTimeFormat(
    locale,
    style === 'short' ? { month: 'short', day: 'numeric', timeZone: 'UTC' } : { dateStyle: 'medium', timeZone: 'UTC' },
  );
  return (day) => format.format(new Date(dayStartMs(day)));
}

/**
 * A daily series as a figure readable with or without the picture: the server-drawn SVG bar chart
 * (an image named by its title, its `<desc>` pointing at the table), every day that has a figure
 * in a table only screen readers see, and a visible one-line summary (the total and the busiest
 * day) as its caption. No script: it is all in the HTML.
 */
export function dayChart(series: readonly DayValue[], options: DayChartOptions): SafeHtml {
  const { t } = options;
  const locale = intlLocale(options.locale);
  const numbers = new Intl.NumberFormat(locale);
  const shortDay = dayFormatter(locale, 'short');
  const longDay = dayFormatter(locale, 'long');
  const summary = summarize(series);
  const description =
    summary.first && summary.last ? t('chart.desc', { first: longDay(summary.first), last: longDay(summary.last) }) : t('chart.empty');
  const svg = barChartSvg(series, {
    id: options.id,
    title: options.title,
    description,
    locale,
    formatDay: shortDay,
    emptyText: t('chart.empty'),
  });
  const peak = summary.peak ? ` ${t('chart.peak', { day: longDay(summary.peak.day), value: numbers.format(summary.peak.value) })}` : '';
  const counted = series.filter((point) => point.value !== 0);
  const table = counted.length
    ? // A table ignores a width below its content's: the wrapper is what is clipped away.
      html`<div class="visually-hidden"><table>
<caption>${options.title} ${t('chart.tableNote')}</caption>
<thead><tr><th scope="col">${t('chart.day')}</th><th scope="col">${options.valueLabel}</th></tr></thead>
<tbody>${counted.map((point) => html`<tr><th scope="row"><time datetime="${point.day}">${longDay(point.day)}</time></th><td>${numbers.format(point.value)}</td></tr>`)}</tbody>
</table></div>`
    : null;
  return html`<figure class="day-chart" id="${options.id}">
${raw(svg)}
${table}
<figcaption class="day-chart-summary">${options.summary}${peak}</figcaption>
</figure>`;
}
