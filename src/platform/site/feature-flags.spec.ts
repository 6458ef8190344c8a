import { FEATURE_FLAGS, FEATURE_NAMES, featureFlagState, isFeatureName } from './feature-flags';

describe('feature flags', () => {
  it('declares at least requests, submit, webhooks and stats, on by default', () => {
    expect(FEATURE_NAMES).toEqual(expect.arrayContaining(['requests', 'submit', 'webhooks', 'stats']));
    expect(featureFlagState([])).toEqual(Object.fromEntries(FEATURE_NAMES.map((n) => [n, FEATURE_FLAGS[n].default])));
    expect(featureFlagState([])).toMatchObject({ requests: true, submit: true, webhooks: true, stats: true });
  });

  it('overlays stored settings and ignores names no longer declared', () => {
    const state = featureFlagState([
      { name: 'requests', enabled: false },
      { name: 'retired', enabled: true },
    ]);
    expect(state.requests).toBe(false);
    expect(state.stats).toBe(true);
    expect(Object.keys(state).sort()).toEqual([...FEATURE_NAMES].sort());
  });

  it('knows its own names only, not inherited properties', () => {
    expect(isFeatureName('stats')).toBe(true);
    expect(isFeatureName('toString')).toBe(false);
    expect(isFeatureName('__proto__')).toBe(false);
  });
});
