import { UnavailableSummary } from './unavailable-summary';

describe('UnavailableSummary', () => {
  it('warns once per cause per interval and counts the 503s in between', () => {
    let now = 0;
    const said: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const summary = new UnavailableSummary(
      (fields, message) => said.push({ fields, message }),
      () => now,
      60_000,
    );
    for (let i = 0; i < 500; i++) summary.note('database-unavailable', 'the database cannot be reached');
    summary.note('not-ready', 'readiness probe answered 503');
    expect(said.map((s) => s.fields)).toEqual([
      { cause: 'database-unavailable', since: 0 },
      { cause: 'not-ready', since: 0 },
    ]);
    now = 60_000;
    summary.note('database-unavailable', 'the database cannot be reached');
    expect(said).toHaveLength(3);
    expect(said[2].fields).toEqual({ cause: 'database-unavailable', since: 499 });
    expect(said[2].message).toContain('499 more answered 503');
  });
});
