import type { ActionDayCount } from '../../platform/audit/audit.repository';
import { denseSeries } from '../../lib/charts/days';
import type { ActivityDto, ActivitySeriesDto } from './dto/activity.dto';

/** Which audit actions each activity series counts. */
export const ACTIVITY_ACTIONS = {
  publishes: ['plugin.publish'],
  failedDeliveries: ['webhook.delivery_failed'],
  ingestErrors: ['plugin.publish_invalid', 'plugin.publish_asset_fail', 'plugin.publish_conflict', 'plugin.publish_denied'],
} as const;

export type ActivitySeriesName = keyof typeof ACTIVITY_ACTIONS;

function seriesOf(rows: readonly ActionDayCount[], actions: readonly string[], days: readonly string[]): ActivitySeriesDto {
  const points = denseSeries(
    rows.filter((row) => actions.includes(row.action)).map((row) => ({ day: row.day, value: row.count })),
    days,
  );
  return { total: points.reduce((sum, p) => sum + p.value, 0), series: points.map((p) => ({ day: p.day, count: p.value })) };
}

export function toActivityDto(days: readonly string[], rows: readonly ActionDayCount[]): ActivityDto {
  return {
    from: days[0],
    to: days[days.length - 1],
    publishes: seriesOf(rows, ACTIVITY_ACTIONS.publishes, days),
    failedDeliveries: seriesOf(rows, ACTIVITY_ACTIONS.failedDeliveries, days),
    ingestErrors: seriesOf(rows, ACTIVITY_ACTIONS.ingestErrors, days),
  };
}
