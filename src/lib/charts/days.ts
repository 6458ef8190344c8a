/**
 * Calendar days in UTC, written `YYYY-MM-DD`: the unit of every daily series (downloads, the
 * admin's activity). A day begins at 00:00 UTC whatever the server's or visitor's time zone.
 */

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day an instant falls on. */
export function utcDay(instant: Date | number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** The instant a day begins (00:00 UTC), in epoch milliseconds; NaN for a malformed day. */
export function dayStartMs(day: string): number {
  const match = DAY_PATTERN.exec(day);
  if (!match) return Number.NaN;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return utcDay(ms) === day ? ms : Number.NaN;
}

/** Whether `day` names a real calendar day as `YYYY-MM-DD`. */
export function isDay(day: string): boolean {
  return !Number.isNaN(dayStartMs(day));
}

/** The day `n` days after `day` (before it when `n` is negative). */
export function addDays(day: string, n: number): string {
  return utcDay(dayStartMs(day) + n * DAY_MS);
}

/** The `count` days ending with `lastDay`, oldest first. */
export function daysEndingOn(lastDay: string, count: number): string[] {
  const start = dayStartMs(lastDay) - (count - 1) * DAY_MS;
  return Array.from({ length: Math.max(0, count) }, (_, i) => utcDay(start + i * DAY_MS));
}

/** One day's figure in a series. */
export interface DayValue {
  day: string;
  value: number;
}

/** A value for every day of `days` (in their order): the row's value, or 0 for a day without one. */
export function denseSeries(rows: readonly DayValue[], days: readonly string[]): DayValue[] {
  const byDay = new Map<string, number>();
  for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.value);
  return days.map((day) => ({ day, value: byDay.get(day) ?? 0 }));
}
