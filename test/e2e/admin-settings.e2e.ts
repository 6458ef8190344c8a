import request from 'supertest';
import { adminRefusalCallers, expectAdminOnly } from '../support/admin-refusals';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const DEFAULTS = {
  'manifest.require_release_asset': 1,
  'manifest.candidates': ['.plugin', '.plugin.json', 'plugin.yaml', 'plugin.json'],
  'hash.budget_bytes': 777_000,
  'images.max_bytes': 10_485_760,
  'publish.claim_requires_repo_access': 1,
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
  'ratelimit.reconcile_cooldown_s': 60,
  'ratelimit.password_checks_per_hour': 20,
  'signin.password_enabled': 1,
  'ratelimit.signin_failures_per_account': 5,
  'ratelimit.signin_failures_per_ip': 30,
};

/** Another app instance on the first one's database (through the embedded engine's socket when embedded). */
function secondInstance(first: TestApp): Promise<TestApp> {
  const embedded = first.database.embedded;
  // Instances of one deployment share their secrets: a session issued by one is good on the other.
  const env: Record<string, string> = {
    HASH_BUDGET_BYTES: String(DEFAULTS['hash.budget_bytes']),
    SESSION_SECRET: first.config.sessionSecret,
    KEY_ENCRYPTION_KEY: first.config.keyEncryptionKey.toString('hex'),
  };
  if (embedded)
    env.DATABASE_URL = `postgres://${embedded.target.user}@localhost/${embedded.target.database}?host=${encodeURIComponent(embedded.target.host)}`;
  return startTestApp(env, first.testDatabase);
}

describe('admin settings', () => {
  let app: TestApp;
  let admin: { jwt: string; user: { id: string } };
  const get = (target: TestApp = app) => request(target.url).get('/api/admin/settings').set('Authorization', `Bearer ${admin.jwt}`);
  const patch = (body: unknown, target: TestApp = app) =>
    request(target.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send(body as object);
  const auditEntries = async () =>
    (
      await request(app.url)
        .get('/api/admin/audit?action=settings.update&limit=100')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .expect(200)
    ).body.entries;
  const storedRows = () => app.database.dataSource.query('SELECT key, value FROM app_setting ORDER BY key');

  beforeAll(async () => {
    app = await startTestApp({ HASH_BUDGET_BYTES: String(DEFAULTS['hash.budget_bytes']) });
    admin = await userWithSession(app, 'settings-admin', 'admin');
  });
  afterAll(() => app?.close());

  it('refuses anonymous callers, non-admins and publisher tokens', async () => {
    const callers = await adminRefusalCallers(app);
    await expectAdminOnly(app, callers, 'get', '/api/admin/settings');
    await expectAdminOnly(app, callers, 'patch', '/api/admin/settings', { 'site.name': 'Hijacked' });
    expect((await get().expect(200)).body['site.name']).toBe('Plugin Registry');
  });

  it('answers every declared key at its default, with definitions (the hash budget from HASH_BUDGET_BYTES)', async () => {
    const res = await get().expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { definitions, ...values } = res.body;
    expect(values).toEqual(DEFAULTS);
    expect(Object.keys(definitions).sort()).toEqual(Object.keys(DEFAULTS).sort());
    expect(definitions['manifest.require_release_asset']).toMatchObject({ type: 'flag', default: 1, values: [0, 1], public: false });
    expect(definitions['hash.budget_bytes']).toMatchObject({ type: 'integer', default: 777_000, defaultFrom: 'HASH_BUDGET_BYTES', min: 0 });
    expect(definitions['manifest.candidates']).toMatchObject({ type: 'file-name[]', maxItems: 16, minItems: 1 });
    expect(definitions['site.name']).toMatchObject({ type: 'string', minLength: 1, maxLength: 100, public: true });
    expect(definitions['ratelimit.signin_per_min']).toMatchObject({ type: 'integer', min: 1 });
    expect(values).not.toHaveProperty('extension_fields.global');
  });

  it('round-trips a change set, flags as 0/1, and audits the changed keys before and after', async () => {
    const changed = await patch({
      'manifest.require_release_asset': false,
      'manifest.candidates': ['plugin.json', 'manifest.yaml'],
      'site.name': '  Acme Plugins ',
      'ratelimit.publish_per_min': 120,
    }).expect(200);
    expect(changed.body).toMatchObject({
      'manifest.require_release_asset': 0,
      'manifest.candidates': ['plugin.json', 'manifest.yaml'],
      'site.name': 'Acme Plugins',
    });
    expect(changed.body.definitions).toBeDefined();
    const { definitions: _definitions, ...values } = (await get().expect(200)).body;
    expect(values).toEqual({
      ...DEFAULTS,
      'manifest.require_release_asset': 0,
      'manifest.candidates': ['plugin.json', 'manifest.yaml'],
      'site.name': 'Acme Plugins',
    });

    const [entry] = await auditEntries();
    expect(entry.actor.userId).toBe(admin.user.id);
    // ratelimit.publish_per_min was sent at its current value: not a change.
    expect(entry.details).toEqual({
      keys: ['manifest.require_release_asset', 'manifest.candidates', 'site.name'],
      before: {
        'manifest.require_release_asset': 1,
        'manifest.candidates': DEFAULTS['manifest.candidates'],
        'site.name': 'Plugin Registry',
      },
      after: { 'manifest.require_release_asset': 0, 'manifest.candidates': ['plugin.json', 'manifest.yaml'], 'site.name': 'Acme Plugins' },
    });

    // The public consumer reads the same typed value.
    expect((await request(app.url).get('/').expect(200)).text).toContain('Acme Plugins');

    await patch({ 'manifest.require_release_asset': 1 }).expect(200);
    expect((await get().expect(200)).body['manifest.require_release_asset']).toBe(1);
    const entries = await auditEntries();
    expect(entries).toHaveLength(2);
    expect(entries[0].details).toEqual({
      keys: ['manifest.require_release_asset'],
      before: { 'manifest.require_release_asset': 0 },
      after: { 'manifest.require_release_asset': 1 },
    });

    // Nothing changed: nothing written, nothing audited.
    await patch({ 'site.name': 'Acme Plugins' }).expect(200);
    await patch({}).expect(200);
    expect(await auditEntries()).toHaveLength(2);
  });

  it('refuses unknown keys and bad values with one error per field at its pointer, writing nothing', async () => {
    const before = await storedRows();
    const res = await patch({
      'site.name': 'Would Be Fine',
      'hash.budget_bytes': -1,
      'manifest.require_release_asset': 'yes',
      'manifest.candidates': ['ok.json', 'dir/plugin.json'],
      'ratelimit.signin_per_min': 0,
      'webhooks.reconcile_interval_s': 1.5,
      'no.such.key': 1,
      'extension_fields.global': [],
    }).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.type).toMatch(/\/problems\/validation-failed$/);
    expect(res.body.errors).toEqual([
      { path: '/hash.budget_bytes', message: 'hash.budget_bytes: must be at least 0' },
      { path: '/manifest.require_release_asset', message: 'manifest.require_release_asset: must be 0, 1, true or false' },
      { path: '/manifest.candidates/1', message: 'manifest.candidates/1: must be a plain file name (no directory part)' },
      { path: '/ratelimit.signin_per_min', message: 'ratelimit.signin_per_min: must be at least 1' },
      { path: '/webhooks.reconcile_interval_s', message: 'webhooks.reconcile_interval_s: must be an integer' },
      { path: '/no.such.key', message: 'no.such.key: is not a known setting' },
      { path: '/extension_fields.global', message: expect.stringContaining('extension_fields.global: is not edited here') },
    ]);
    for (const body of [[{ 'site.name': 'x' }], 'text', null]) {
      const bad = await request(app.url)
        .patch('/api/admin/settings')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(bad.status).toBe(400);
    }
    await patch({ 'site.name': '' }).expect(400);
    await patch({ 'site.name': 'x'.repeat(101) }).expect(400);
    await patch({ 'manifest.candidates': Array.from({ length: 17 }, (_, i) => `m${i}.json`) }).expect(400);
    expect(await storedRows()).toEqual(before);
  });

  it('reads a stored value that no longer validates as its default', async () => {
    await app.database.dataSource.query(`INSERT INTO app_setting (key, value) VALUES ('hash.budget_bytes', '"lots"'::jsonb)`);
    try {
      expect((await get().expect(200)).body['hash.budget_bytes']).toBe(DEFAULTS['hash.budget_bytes']);
    } finally {
      await app.database.dataSource.query(`DELETE FROM app_setting WHERE key = 'hash.budget_bytes'`);
    }
  });
});

describe('settings across instances', () => {
  let first: TestApp;
  let second: TestApp;
  let admin: { jwt: string };

  beforeAll(async () => {
    first = await startTestApp({ HASH_BUDGET_BYTES: String(DEFAULTS['hash.budget_bytes']) });
    second = await secondInstance(first);
    admin = await userWithSession(first, 'two-instance-admin', 'admin');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const read = async (target: TestApp) =>
    (await request(target.url).get('/api/admin/settings').set('Authorization', `Bearer ${admin.jwt}`).expect(200)).body;

  it('a change made through one instance is seen by the next read on the other', async () => {
    // Both instances have cached the settings.
    expect((await read(first))['hash.budget_bytes']).toBe(777_000);
    expect((await read(second))['hash.budget_bytes']).toBe(777_000);
    expect((await request(second.url).get('/').expect(200)).text).toContain('Plugin Registry');

    await request(first.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'hash.budget_bytes': 1024, 'site.name': 'Changed On First' })
      .expect(200);
    expect((await read(second))['hash.budget_bytes']).toBe(1024);
    expect((await request(second.url).get('/').expect(200)).text).toContain('Changed On First');

    await request(second.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'publish.claim_requires_repo_access': false })
      .expect(200);
    expect((await read(first))['publish.claim_requires_repo_access']).toBe(0);
  });

  it('sees a change written straight into the table (the trigger moves the version)', async () => {
    await read(first);
    await second.database.dataSource.query(`INSERT INTO app_setting (key, value) VALUES ('ratelimit.webhook_per_min', '7'::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`);
    expect((await read(first))['ratelimit.webhook_per_min']).toBe(7);
    await first.database.dataSource.query(`DELETE FROM app_setting WHERE key = 'ratelimit.webhook_per_min'`);
    expect((await read(second))['ratelimit.webhook_per_min']).toBe(DEFAULTS['ratelimit.webhook_per_min']);
  });
});

describe('settings reach the ingest', () => {
  let w: PublishWorld;
  beforeAll(async () => {
    w = await publishWorld();
  });
  afterAll(() => w?.close());

  it('hashes assets up to the hash budget an admin set a moment ago', async () => {
    const admin = await userWithSession(w.app, 'budget-admin', 'admin');
    const publisher = await w.tokenFor('budget-publisher', ['publish:*']);
    const setBudget = (bytes: number) =>
      request(w.app.url)
        .patch('/api/admin/settings')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ 'hash.budget_bytes': bytes })
        .expect(200);
    const publish = async (version: string) => {
      const url = w.forge.asset(`/acme/budgeted/releases/download/${version}/a.bin`, { size: 2_000, seed: 9 });
      await w
        .push(publisher.token, 'budgeted', {
          manifest: manifestYaml({ name: 'budgeted', version }),
          manifestSource: 'plugin.yaml',
          version,
          assets: [{ name: 'a.bin', url }],
          repoUrl: 'https://git.example.org/acme/budgeted',
        })
        .expect(201);
      const release = await request(w.app.url).get(`/api/plugins/budgeted/releases/${version}`).expect(200);
      return release.body.assets[0].hashed as boolean;
    };
    await setBudget(1_999);
    expect(await publish('1.0.0')).toBe(false);
    await setBudget(2_000);
    expect(await publish('1.0.1')).toBe(true);
  });
});
