import type { components } from '../../../client/registry-client';
import { dayChart, intlLocale } from '../../components/day-chart';
import { html, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';

type Activity = components['schemas']['ActivityDto'];
type ActivitySeries = components['schemas']['ActivitySeriesDto'];

/** The days the admin home's charts cover. */
export const ADMIN_ACTIVITY_DAYS = 30;

/** Each chart: its series, its strings, and the audit log filtered to what it counts. */
const CHARTS = [
  { key: 'publishes', audit: '/admin/audit?action=plugin.publish' },
  { key: 'failedDeliveries', audit: '/admin/audit?action=webhook.delivery_failed' },
  { key: 'ingestErrors', audit: '/admin/audit?action=plugin.publish_invalid' },
] as const;

/**
 * The admin home's activity (GET /api/admin/activity): publishes, failed webhook deliveries and
 * ingest errors per day, each a server-drawn chart with its figures as text; nothing when the
 * activity could not be read (the rest of the page still serves).
 */
export function activitySection(ctx: WebContext, activity: Activity | null): SafeHtml | null {
  if (!activity) return null;
  const { t } = ctx;
  const numbers = new Intl.NumberFormat(intlLocale(ctx.locale));
  const days = activity.publishes.series.length;
  const chart = (
    key: (typeof CHARTS)[number]['key'],
    audit: string,
    series: ActivitySeries,
  ) => html`<section class="activity-chart" aria-labelledby="activity-${key}-heading">
<h3 id="activity-${key}-heading">${t(`activity.${key}`)}</h3>
${dayChart(
  series.series.map((point) => ({ day: point.day, value: point.count })),
  {
    id: `activity-${key}`,
    title: t(`activity.${key}.title`),
    valueLabel: t('activity.count'),
    summary: series.total ? t('activity.summary', { days, total: numbers.format(series.total) }) : t('chart.none'),
    locale: ctx.locale,
    t,
  },
)}
<p class="meta"><a href="${audit}">${t('activity.auditLink')}</a></p>
</section>`;
  return html`<section class="admin-activity" aria-labelledby="admin-activity-heading">
<h2 id="admin-activity-heading">${t('activity.heading', { days })}</h2>
<div class="activity-charts">${CHARTS.map(({ key, audit }) => chart(key, audit, activity[key]))}</div>
</section>`;
}
