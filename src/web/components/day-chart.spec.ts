import { translator } from '../i18n/messages';
import { dayChart, intlLocale } from './day-chart';

const t = translator('en');
const options = {
  id: 'dl',
  title: 'A <b>plugin</b>: downloads per day',
  valueLabel: 'Downloads',
  summary: 'Downloads in the last 3 days: 5.',
  locale: 'en',
  t,
};

describe('day chart figure', () => {
  it('is the drawing, the counted days as a hidden table, and the summary as the last child (the caption)', () => {
    const out = dayChart(
      [
        { day: '2026-11-25', value: 0 },
        { day: '2026-11-26', value: 4 },
        { day: '2026-11-27', value: 1 },
      ],
      options,
    ).value;
    expect(out).toMatch(/^<figure class="day-chart" id="dl">\n<svg /);
    expect(out).toContain('<title id="dl-title">A &lt;b&gt;plugin&lt;/b&gt;: downloads per day</title>');
    expect(out).toContain(
      '<desc id="dl-desc">Bar chart, one bar a day from Nov 25, 2026 to Nov 27, 2026. The figures follow as a table and a summary.</desc>',
    );
    expect(out).toContain('<caption>A &lt;b&gt;plugin&lt;/b&gt;: downloads per day (days without any are left out)</caption>');
    expect(out.match(/<tr><th scope="row">/g)).toHaveLength(2);
    expect(out).toContain('<tr><th scope="row"><time datetime="2026-11-26">Nov 26, 2026</time></th><td>4</td></tr>');
    expect(out).toMatch(
      /<figcaption class="day-chart-summary">Downloads in the last 3 days: 5\. Busiest day: Nov 26, 2026 \(4\)\.<\/figcaption>\n<\/figure>$/,
    );
  });

  it('has no table when every day is 0, and no busiest day', () => {
    const out = dayChart([{ day: '2026-11-27', value: 0 }], { ...options, summary: 'None in this period.' }).value;
    expect(out).not.toContain('<table');
    expect(out).toContain('<figcaption class="day-chart-summary">None in this period.</figcaption>');
  });

  it('writes days and numbers in the page language, falling back to English for a tag Intl does not know', () => {
    const out = dayChart([{ day: '2026-11-27', value: 1234 }], { ...options, locale: 'de', t: translator('de') }).value;
    expect(out).toContain('<td>1.234</td>');
    expect(out).toContain('27.11.2026');
    expect(intlLocale('de-AT')).toBe('de-AT');
    expect(intlLocale('not a tag')).toBe('en');
  });
});
