import { checkSettingValue, defaultValues, parseSettingsPatch, SETTING_DEFINITIONS } from './setting-definitions';

describe('setting definitions', () => {
  it('declares every key the registry reads, with defaults (the hash budget from configuration)', () => {
    expect(defaultValues({ hashBudgetBytes: 1234 })).toEqual({
      'manifest.require_release_asset': 1,
      'manifest.candidates': ['.plugin', '.plugin.json', 'plugin.yaml', 'plugin.json'],
      'hash.budget_bytes': 1234,
      'images.max_bytes': 10 * 1024 * 1024,
      'publish.claim_requires_repo_access': 1,
      'signin.password_enabled': 1,
      'site.name': 'Plugin Registry',
      'webhooks.reconcile_interval_s': 21600,
      'ingest.max_concurrent': 32,
      'ingest.max_concurrent_per_user': 20,
      'ratelimit.public_read_per_min': 1200,
      'ratelimit.publish_per_min': 120,
      'ratelimit.webhook_per_min': 600,
      'ratelimit.signin_per_min': 120,
      'ratelimit.wishlist_request_per_hour': 10,
      'ratelimit.wishlist_vote_per_min': 60,
      'ratelimit.submit_per_hour': 10,
      'ratelimit.subscription_ping_per_hour': 30,
      'ratelimit.signin_failures_per_account': 5,
      'ratelimit.signin_failures_per_ip': 30,
      'ratelimit.password_checks_per_hour': 20,
      'ratelimit.reconcile_cooldown_s': 60,
    });
  });

  it('takes flags as 0, 1, true or false and keeps them as 0 or 1', () => {
    const flag = SETTING_DEFINITIONS['manifest.require_release_asset'];
    expect(checkSettingValue(flag, true)).toEqual({ ok: true, value: 1 });
    expect(checkSettingValue(flag, false)).toEqual({ ok: true, value: 0 });
    expect(checkSettingValue(flag, 0)).toEqual({ ok: true, value: 0 });
    for (const bad of [2, '1', 'true', null, []])
      expect(checkSettingValue(flag, bad)).toEqual({ ok: false, errors: [{ pointer: '', message: 'must be 0, 1, true or false' }] });
  });

  it('bounds integers', () => {
    const budget = SETTING_DEFINITIONS['hash.budget_bytes'];
    expect(checkSettingValue(budget, 0)).toEqual({ ok: true, value: 0 });
    expect(checkSettingValue(budget, -1)).toMatchObject({ ok: false, errors: [{ message: 'must be at least 0' }] });
    expect(checkSettingValue(budget, 1.5)).toMatchObject({ ok: false, errors: [{ message: 'must be an integer' }] });
    expect(checkSettingValue(budget, '5')).toMatchObject({ ok: false, errors: [{ message: 'must be an integer' }] });
    expect(checkSettingValue(SETTING_DEFINITIONS['ratelimit.publish_per_min'], 0)).toMatchObject({
      ok: false,
      errors: [{ message: 'must be at least 1' }],
    });
  });

  it('trims the site name and refuses blank, long or control-character names', () => {
    const name = SETTING_DEFINITIONS['site.name'];
    expect(checkSettingValue(name, '  Acme  ')).toEqual({ ok: true, value: 'Acme' });
    expect(checkSettingValue(name, '   ')).toMatchObject({ ok: false, errors: [{ message: 'must not be blank' }] });
    expect(checkSettingValue(name, '')).toMatchObject({ ok: false, errors: [{ message: 'must be at least 1 character long' }] });
    expect(checkSettingValue(name, 'x'.repeat(101))).toMatchObject({
      ok: false,
      errors: [{ message: 'must be at most 100 characters long' }],
    });
    expect(checkSettingValue(name, '😀'.repeat(100))).toMatchObject({ ok: true });
    expect(checkSettingValue(name, 'a\nb')).toMatchObject({ ok: false, errors: [{ message: 'must not contain control characters' }] });
  });

  it('takes manifest candidates as up to 16 plain, distinct file names, each bad item at its own pointer', () => {
    const candidates = SETTING_DEFINITIONS['manifest.candidates'];
    expect(checkSettingValue(candidates, ['plugin.toml'])).toEqual({ ok: true, value: ['plugin.toml'] });
    expect(checkSettingValue(candidates, [])).toMatchObject({
      ok: false,
      errors: [{ pointer: '', message: 'must have at least 1 element' }],
    });
    expect(
      checkSettingValue(
        candidates,
        Array.from({ length: 17 }, (_, i) => `m${i}.json`),
      ),
    ).toMatchObject({ ok: false, errors: [{ message: 'must have at most 16 elements' }] });
    expect(checkSettingValue(candidates, 'plugin.json')).toMatchObject({
      ok: false,
      errors: [{ message: 'must be an array of file names' }],
    });
    expect(checkSettingValue(candidates, ['ok.json', 'dir/x.json', '..', 'ok.json', 7, ' pad', 'a\\b'])).toEqual({
      ok: false,
      errors: [
        { pointer: '/1', message: 'must be a plain file name (no directory part)' },
        { pointer: '/2', message: 'must be a plain file name (no directory part)' },
        { pointer: '/3', message: 'is listed twice' },
        { pointer: '/4', message: 'must be a string' },
        { pointer: '/5', message: 'must not start or end with whitespace' },
        { pointer: '/6', message: 'must be a plain file name (no directory part)' },
      ],
    });
  });

  it('parses a change set, or reports every bad key at its JSON pointer', () => {
    expect(parseSettingsPatch({ 'manifest.require_release_asset': false, 'hash.budget_bytes': 10 })).toEqual({
      ok: true,
      changes: { 'manifest.require_release_asset': 0, 'hash.budget_bytes': 10 },
    });
    expect(
      parseSettingsPatch({
        'hash.budget_bytes': -1,
        'no.such': 1,
        'a/b~c': 1,
        'extension_fields.global': [],
        'site.name': 'ok',
        'manifest.candidates': ['x/y'],
      }),
    ).toEqual({
      ok: false,
      errors: [
        { path: '/hash.budget_bytes', message: 'hash.budget_bytes: must be at least 0' },
        { path: '/no.such', message: 'no.such: is not a known setting' },
        { path: '/a~1b~0c', message: 'a~1b~0c: is not a known setting' },
        { path: '/extension_fields.global', message: expect.stringMatching(/^extension_fields\.global: is not edited here/) },
        { path: '/manifest.candidates/0', message: 'manifest.candidates/0: must be a plain file name (no directory part)' },
      ],
    });
    expect(parseSettingsPatch({ __proto__: 1 } as Record<string, unknown>)).toMatchObject({ ok: true });
    expect(parseSettingsPatch(JSON.parse('{"__proto__": 1, "constructor": 2}'))).toMatchObject({
      ok: false,
      errors: [{ path: '/__proto__' }, { path: '/constructor' }],
    });
  });
});
