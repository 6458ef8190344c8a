import { ANALYZE_SAMPLE_BYTES, analyzeStatement, statisticsTarget } from './engine-settings';

describe('the embedded ANALYZE sample bound', () => {
  it('keeps the stock target for a table whose heap fits the bound whole', () => {
    expect(statisticsTarget(ANALYZE_SAMPLE_BYTES, 1_000_000)).toBe(100);
    expect(analyzeStatement('public.plugin', 8192, 40)).toBe('ANALYZE public.plugin');
  });

  it('samples as many rows as fit the bound at the mean row width', () => {
    // 100,000 releases in 156 MiB: ~1,638 bytes a row, 5,120 rows fit, 300 a unit of target.
    expect(statisticsTarget(163_840_000, 100_000)).toBe(17);
    expect(analyzeStatement('public.release', 163_840_000, 100_000)).toBe(
      'SET LOCAL default_statistics_target = 17; ANALYZE public.release',
    );
    // Narrow rows: the whole stock sample fits.
    expect(statisticsTarget(64 * 1024 * 1024, 2_000_000)).toBe(100);
  });

  it('takes the floor for very wide rows and for a table never analyzed (its width unknown)', () => {
    expect(statisticsTarget(1024 * 1024 * 1024, 100_000)).toBe(10);
    expect(statisticsTarget(32 * 1024 * 1024, -1)).toBe(10);
    expect(statisticsTarget(32 * 1024 * 1024, 0)).toBe(10);
  });
});
