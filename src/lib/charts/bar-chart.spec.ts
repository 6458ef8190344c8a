import { barChartLayout, barChartSvg, compactNumber, escapeXml, niceMax, PLOT, PLOT_HEIGHT, PLOT_WIDTH } from './bar-chart';
import { daysEndingOn, type DayValue } from './days';

const series = (values: number[], last = '2026-11-27'): DayValue[] =>
  daysEndingOn(last, values.length).map((day, i) => ({ day, value: values[i] }));
const BASELINE = PLOT.top + PLOT_HEIGHT;

describe('bar chart layout', () => {
  it('has the plot the constants say', () => {
    expect({ PLOT_WIDTH, PLOT_HEIGHT, BASELINE }).toEqual({ PLOT_WIDTH: 274, PLOT_HEIGHT: 128, BASELINE: 138 });
  });

  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [10, 10],
    [11, 20],
    [1234, 2000],
    [2_500_000, 5_000_000],
  ])('rounds a largest value of %p up to a scale of %p', (max, scale) => {
    expect(niceMax(max)).toBe(scale);
  });

  it('draws a known series to exact heights, with the scale and both ends labelled', () => {
    const layout = barChartLayout(series([0, 1, 2, 4]));
    expect(layout.scaleMax).toBe(5);
    expect(layout.bars).toEqual([
      { day: '2026-11-24', value: 0, x: 46.85, y: 138, width: 54.8, height: 0 },
      { day: '2026-11-25', value: 1, x: 115.35, y: 112.4, width: 54.8, height: 25.6 },
      { day: '2026-11-26', value: 2, x: 183.85, y: 86.8, width: 54.8, height: 51.2 },
      { day: '2026-11-27', value: 4, x: 252.35, y: 35.6, width: 54.8, height: 102.4 },
    ]);
    // 2.5 is not a count: only whole-number ticks.
    expect(layout.ticks).toEqual([
      { value: 0, y: 138, label: '0' },
      { value: 5, y: 10, label: '5' },
    ]);
    expect(layout.dayLabels).toEqual([
      { day: '2026-11-24', x: 40, anchor: 'start', label: '2026-11-24' },
      { day: '2026-11-27', x: 314, anchor: 'end', label: '2026-11-27' },
    ]);
  });

  it('labels the middle day of a long series and keeps 90 bars inside the plot', () => {
    const values = Array.from({ length: 90 }, (_, i) => i % 10);
    const layout = barChartLayout(series(values), { formatDay: (day) => day.slice(5) });
    expect(layout.scaleMax).toBe(10);
    expect(layout.ticks.map((t) => [t.value, t.y])).toEqual([
      [0, 138],
      [5, 74],
      [10, 10],
    ]);
    expect(layout.bars).toHaveLength(90);
    expect(layout.bars[0].width).toBe(2.44);
    expect(layout.bars[9].height).toBe(115.2);
    const last = layout.bars[89];
    expect(last.x + last.width).toBeLessThanOrEqual(PLOT.left + PLOT_WIDTH);
    expect(layout.bars[0].x).toBeGreaterThanOrEqual(PLOT.left);
    expect(layout.dayLabels.map((l) => [l.label, l.anchor])).toEqual([
      ['08-30', 'start'],
      ['10-13', 'middle'],
      ['11-27', 'end'],
    ]);
  });

  it('draws one day as one wide bar, labelled in the middle', () => {
    const layout = barChartLayout([{ day: '2026-11-27', value: 7 }]);
    expect(layout.scaleMax).toBe(10);
    expect(layout.bars).toEqual([{ day: '2026-11-27', value: 7, x: 67.4, y: 48.4, width: 219.2, height: 89.6 }]);
    expect(layout.dayLabels).toEqual([{ day: '2026-11-27', x: 177, anchor: 'middle', label: '2026-11-27' }]);
  });

  it('keeps a small day visible beside a huge one, and writes large scales compactly', () => {
    const layout = barChartLayout(series([1, 2_000_000_000]));
    expect(layout.scaleMax).toBe(2_000_000_000);
    expect(layout.bars.map((b) => b.height)).toEqual([1, 128]);
    expect(layout.ticks.map((t) => t.label)).toEqual(['0', '1B', '2B']);
    expect(compactNumber(1234)).toBe('1.2K');
    expect(compactNumber(1234, 'de')).toBe('1234');
  });

  it('gives a series of zeros a scale of 1 and no bar height', () => {
    const layout = barChartLayout(series([0, 0, 0]));
    expect(layout.scaleMax).toBe(1);
    expect(layout.bars.map((b) => b.height)).toEqual([0, 0, 0]);
    expect(layout.ticks.map((t) => t.label)).toEqual(['0', '1']);
  });

  it('has nothing to place for an empty series', () => {
    expect(barChartLayout([])).toEqual({
      scaleMax: 1,
      bars: [],
      ticks: [
        { value: 0, y: 138, label: '0' },
        { value: 1, y: 10, label: '1' },
      ],
      dayLabels: [],
    });
  });
});

describe('bar chart SVG', () => {
  const options = { id: 'downloads', title: 'Downloads per day', description: '7 downloads in 4 days.' };

  it('is an image named by its title and described by its desc, with one tooltip per day that has a count', () => {
    const svg = barChartSvg(series([0, 1, 2, 4]), options);
    expect(
      svg.startsWith(
        '<svg class="chart-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 160" role="img" aria-labelledby="downloads-title" aria-describedby="downloads-desc" focusable="false">',
      ),
    ).toBe(true);
    expect(svg).toContain('<title id="downloads-title">Downloads per day</title><desc id="downloads-desc">7 downloads in 4 days.</desc>');
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('<rect x="252.35" y="35.6" width="54.8" height="102.4"><title>2026-11-27: 4</title></rect>');
    expect(svg).toContain('<text x="36" y="10" text-anchor="end" dominant-baseline="middle">5</text>');
    expect(svg).toContain('<text x="314" y="154" text-anchor="end">2026-11-27</text>');
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('escapes every text it is given and loads nothing', () => {
    const hostile = '<script>alert("x")</script> & \'q\'';
    const svg = barChartSvg(series([3]), {
      id: 'x"><script>',
      title: hostile,
      description: hostile,
      formatDay: () => hostile,
      emptyText: hostile,
    });
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;');
    expect(svg).toContain('aria-labelledby="xscript-title"');
    expect(svg).not.toMatch(/style=|href=|https?:\/\/(?!www\.w3\.org\/2000\/svg")/);
    expect(escapeXml(`a<b>"c"&'d'`)).toBe('a&lt;b&gt;&quot;c&quot;&amp;&#39;d&#39;');
  });

  it('says so in the plot when there are no days, and draws no bar', () => {
    const svg = barChartSvg([], { ...options, emptyText: 'No data yet' });
    expect(svg).toContain('<text class="chart-empty" x="177" y="74" text-anchor="middle" dominant-baseline="middle">No data yet</text>');
    expect(svg).not.toContain('<rect');
  });

  it('writes tooltip numbers for the locale', () => {
    const svg = barChartSvg([{ day: '2026-11-27', value: 1234567 }], { ...options, locale: 'de' });
    expect(svg).toContain('<title>2026-11-27: 1.234.567</title>');
  });
});
