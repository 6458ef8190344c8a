import { addDays, dayStartMs, daysEndingOn, denseSeries, isDay, utcDay } from './days';
import { summarize } from './summary';

describe('UTC days', () => {
  it('puts an instant on its UTC day, whatever the hour', () => {
    expect(utcDay(new Date('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(utcDay(new Date('2026-11-28T00:00:00.000Z'))).toBe('2026-11-28');
    expect(utcDay(Date.parse('2026-11-28T01:30:00+02:00'))).toBe('2026-11-27');
  });

  it('reads only real days', () => {
    expect(dayStartMs('2026-11-27')).toBe(Date.parse('2026-11-27T00:00:00Z'));
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-1-01')).toBe(false);
    expect(isDay('')).toBe(false);
  });

  it('counts days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysEndingOn('2026-03-02', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(daysEndingOn('2026-11-27', 90)).toHaveLength(90);
    expect(daysEndingOn('2026-11-27', 90)[0]).toBe('2026-08-30');
    expect(daysEndingOn('2026-11-27', 0)).toEqual([]);
  });

  it('fills the days without a row with 0, in the days’ order, ignoring rows outside them', () => {
    const days = daysEndingOn('2026-11-27', 3);
    expect(
      denseSeries(
        [
          { day: '2026-11-27', value: 4 },
          { day: '2026-11-25', value: 1 },
          { day: '2026-10-01', value: 9 },
        ],
        days,
      ),
    ).toEqual([
      { day: '2026-11-25', value: 1 },
      { day: '2026-11-26', value: 0 },
      { day: '2026-11-27', value: 4 },
    ]);
  });

  it('summarizes a series: total, the first highest day, its ends', () => {
    expect(
      summarize([
        { day: 'a', value: 2 },
        { day: 'b', value: 5 },
        { day: 'c', value: 5 },
      ]),
    ).toEqual({ days: 3, total: 12, peak: { day: 'b', value: 5 }, first: 'a', last: 'c' });
    expect(summarize([{ day: 'a', value: 0 }])).toEqual({ days: 1, total: 0, peak: null, first: 'a', last: 'a' });
    expect(summarize([])).toEqual({ days: 0, total: 0, peak: null, first: null, last: null });
  });
});
