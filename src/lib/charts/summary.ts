import type { DayValue } from './days';

/** What a series amounts to, for a chart's text alternative. */
export interface SeriesSummary {
  days: number;
  total: number;
  /** The day with the highest value (the earliest of equals); null when every value is 0 or there are no days. */
  peak: DayValue | null;
  first: string | null;
  last: string | null;
}

export function summarize(series: readonly DayValue[]): SeriesSummary {
  let total = 0;
  let peak: DayValue | null = null;
  for (const point of series) {
    total += point.value;
    if (point.value > 0 && (!peak || point.value > peak.value)) peak = point;
  }
  return { days: series.length, total, peak: peak ? { ...peak } : null, first: series[0]?.day ?? null, last: series.at(-1)?.day ?? null };
}
