import type { DayValue } from './days';
import { escapeMarkup } from '../markup/escape';

/** The drawing's own coordinates (its viewBox); CSS scales it to its container. */
export const CHART_WIDTH = 320;
export const CHART_HEIGHT = 160;
/** Room for the value labels (left) and day labels (bottom). */
export const PLOT = { left: 40, right: 6, top: 10, bottom: 22 } as const;
export const PLOT_WIDTH = CHART_WIDTH - PLOT.left - PLOT.right;
export const PLOT_HEIGHT = CHART_HEIGHT - PLOT.top - PLOT.bottom;
/** A day with any count stays visible, however small beside the largest. */
export const MIN_BAR_HEIGHT = 1;

export interface BarChartOptions {
  /** Unique on the page: the prefix of the drawing's element ids. Letters, digits and dashes. */
  id: string;
  /** The accessible name (`<title>`). */
  title: string;
  /** The text alternative (`<desc>`): what the chart shows, in words. */
  description: string;
  /** Numbers are written for this BCP 47 locale (default `en`). */
  locale?: string;
  /** How a day is written on the axis and in bar tooltips (default: as given, `YYYY-MM-DD`). */
  formatDay?: (day: string) => string;
  /** Shown in the plot when the series has no days at all. */
  emptyText?: string;
}

export interface Bar {
  day: string;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Tick {
  value: number;
  y: number;
  label: string;
}

export interface DayLabel {
  day: string;
  x: number;
  anchor: 'start' | 'middle' | 'end';
  label: string;
}

/** Where everything goes, before any markup: what the unit specs hold exact. */
export interface BarChartLayout {
  /** The value the top of the plot stands for: the largest value rounded up to 1, 2 or 5 times a power of ten. */
  scaleMax: number;
  bars: Bar[];
  ticks: Tick[];
  dayLabels: DayLabel[];
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The smallest 1, 2 or 5 × 10^k at or above `max` (1 for a series of zeros). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** A value as an axis label: `950`, `1.5k`, `20k`, `3M`, `1.2B`. */
export function compactNumber(value: number, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export function barChartLayout(series: readonly DayValue[], options: Pick<BarChartOptions, 'locale' | 'formatDay'> = {}): BarChartLayout {
  const locale = options.locale ?? 'en';
  const formatDay = options.formatDay ?? ((day: string) => day);
  const max = series.reduce((m, p) => Math.max(m, p.value), 0);
  const scaleMax = niceMax(max);
  const baseline = PLOT.top + PLOT_HEIGHT;
  const slot = series.length ? PLOT_WIDTH / series.length : 0;
  const width = round(Math.max(slot * 0.8, Math.min(slot, 1)));
  const bars = series.map((point, i) => {
    const value = Math.max(0, point.value);
    const scaled = (value / scaleMax) * PLOT_HEIGHT;
    const height = value > 0 ? round(Math.max(MIN_BAR_HEIGHT, scaled)) : 0;
    return {
      day: point.day,
      value: point.value,
      x: round(PLOT.left + i * slot + (slot - width) / 2),
      y: round(baseline - height),
      width,
      height,
    };
  });
  const ticks = [0, scaleMax / 2, scaleMax]
    .filter((value) => Number.isInteger(value))
    .map((value) => ({ value, y: round(baseline - (value / scaleMax) * PLOT_HEIGHT), label: compactNumber(value, locale) }));
  const dayLabels: DayLabel[] = [];
  if (series.length === 1) {
    dayLabels.push({ day: series[0].day, x: round(PLOT.left + PLOT_WIDTH / 2), anchor: 'middle', label: formatDay(series[0].day) });
  } else if (series.length > 1) {
    dayLabels.push({ day: series[0].day, x: PLOT.left, anchor: 'start', label: formatDay(series[0].day) });
    if (series.length >= 5) {
      const mid = Math.floor((series.length - 1) / 2);
      dayLabels.push({
        day: series[mid].day,
        x: round(PLOT.left + (mid + 0.5) * slot),
        anchor: 'middle',
        label: formatDay(series[mid].day),
      });
    }
    const last = series[series.length - 1];
    dayLabels.push({ day: last.day, x: PLOT.left + PLOT_WIDTH, anchor: 'end', label: formatDay(last.day) });
  }
  return { scaleMax, bars, ticks, dayLabels };
}

/** Text and attribute values escaped for SVG inlined in HTML. */
export const escapeXml = escapeMarkup;

/** An id prefix with anything but letters, digits, `-` and `_` dropped (it lands in attributes and references). */
function safeId(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_-]/g, '');
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `chart-${cleaned}`;
}

/**
 * A bar chart of a daily series as an SVG string: one bar a day, the value scale on the left
 * (0, half, top), the first, middle and last day below, a tooltip (`<title>`) on every bar.
 * The drawing is an image to assistive technology (`role="img"`), named by its `<title>` and
 * described by its `<desc>`; the page gives the figures as text beside it. No script, no inline
 * style, no external resource: colours come from the page's CSS through the `chart-*` classes.
 */
export function barChartSvg(series: readonly DayValue[], options: BarChartOptions): string {
  const id = safeId(options.id);
  const locale = options.locale ?? 'en';
  const formatDay = options.formatDay ?? ((day: string) => day);
  const numbers = new Intl.NumberFormat(locale);
  const layout = barChartLayout(series, options);
  const baseline = PLOT.top + PLOT_HEIGHT;
  const parts: string[] = [];
  parts.push(
    `<svg class="chart-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" focusable="false">`,
    `<title id="${id}-title">${escapeXml(options.title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(options.description)}</desc>`,
  );
  parts.push('<g class="chart-grid" aria-hidden="true">');
  for (const tick of layout.ticks) {
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.left + PLOT_WIDTH}" y1="${tick.y}" y2="${tick.y}"/>`);
  }
  parts.push('</g>', '<g class="chart-axis" aria-hidden="true">');
  for (const tick of layout.ticks) {
    parts.push(`<text x="${PLOT.left - 4}" y="${tick.y}" text-anchor="end" dominant-baseline="middle">${escapeXml(tick.label)}</text>`);
  }
  for (const label of layout.dayLabels) {
    parts.push(`<text x="${label.x}" y="${CHART_HEIGHT - 6}" text-anchor="${label.anchor}">${escapeXml(label.label)}</text>`);
  }
  parts.push('</g>');
  if (series.length === 0) {
    parts.push(
      `<text class="chart-empty" x="${PLOT.left + PLOT_WIDTH / 2}" y="${PLOT.top + PLOT_HEIGHT / 2}" text-anchor="middle" dominant-baseline="middle">${escapeXml(options.emptyText ?? '')}</text>`,
    );
  }
  parts.push('<g class="chart-bars">');
  for (const bar of layout.bars) {
    if (bar.height === 0) continue;
    parts.push(
      `<rect x="${bar.x}" y="${bar.y}" width="${bar.width}" height="${bar.height}"><title>${escapeXml(`${formatDay(bar.day)}: ${numbers.format(bar.value)}`)}</title></rect>`,
    );
  }
  parts.push(
    '</g>',
    `<line class="chart-baseline" x1="${PLOT.left}" x2="${PLOT.left + PLOT_WIDTH}" y1="${baseline}" y2="${baseline}" aria-hidden="true"/>`,
    '</svg>',
  );
  return parts.join('');
}
