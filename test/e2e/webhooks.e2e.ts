import { createHash } from 'node:crypto';
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { verifyRelease } from '../../src/lib/integrity';
import { assetChunks, webhookHeaders } from '../support/fake-forge';
import { FORGE_KINDS, WebhookWorld } from '../support/webhook-world';

describe('POST /api/webhooks/release', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    w = await WebhookWorld.open();
  });
  afterAll(() => w?.close());

  const deliveries = async (slug: string, jwt = w.owner.jwt) =>
    (await w.as(jwt, 'get', `/api/plugins/${slug}/deliveries`).expect(200)).body.deliveries;

  it.each(FORGE_KINDS)('%s: a signed release delivery is stored, answered 202, and ingested as a signed release', async (kind) => {
    const plugin = await w.plugin(kind);
    const assets = w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0'));
    const res = await w.deliver(kind, plugin.secret, w.releaseEvent(plugin, 'v1.0.0', assets)).expect(202);
    expect(res.body).toMatchObject({ status: 'queued', id: expect.any(String) });
    expect(await w.count('release', plugin.slug)).toBe(1);

    expect(await w.runWorker()).toBe(1);
    const release = (await request(w.app.url).get(`/api/plugins/${plugin.slug}/releases/1.0.0`).expect(200)).body;
    // The manifest asset is the release's metadata, not one of its downloads.
    expect(release.assets.map((a: { name: string }) => a.name)).toEqual([`${plugin.slug}-linux-x64.tar.gz`]);
    expect(release.publishedBy).toEqual({ kind: 'webhook' });
    const bytes = Buffer.concat([...assetChunks({ size: 4_000, seed: 7 })]);
    expect(release.integrity.assets[0].sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const verified = await verifyRelease({
      release,
      keys: { fetchKeySet: async () => (await request(w.app.url).get('/.well-known/registry-key.json')).body },
      expected: { slug: plugin.slug, version: '1.0.0' },
      asset: { name: `${plugin.slug}-linux-x64.tar.gz`, bytes },
    });
    expect(verified.ok).toBe(true);
    const [delivery] = await deliveries(plugin.slug);
    expect(delivery).toMatchObject({
      provider: kind,
      status: 'succeeded',
      version: '1.0.0',
      tag: 'v1.0.0',
      source: 'webhook',
      reason: null,
      attempts: 1,
    });
    const [row] = await w.query<{ source: string }>(
      `SELECT r.source FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.version = '1.0.0'`,
      [plugin.slug],
    );
    expect(row.source).toBe('webhook');
  });

  describe('refuses with 401 and stores nothing', () => {
    it.each(FORGE_KINDS)("%s: wrong secret, missing header, re-serialized body, another plugin's secret", async (kind) => {
      const plugin = await w.plugin(kind);
      const other = await w.plugin(kind);
      const delivery = w.releaseEvent(plugin, 'v2.0.0', w.releaseFiles(plugin, 'v2.0.0', w.manifest(plugin, '2.0.0')));
      const before = { deliveries: await w.count('webhook_delivery'), releases: await w.count('release') };

      await w.deliver(kind, 'x'.repeat(64), delivery).expect(401);
      await w.deliver(kind, other.secret, delivery).expect(401);
      const signed = webhookHeaders(kind, plugin.secret, delivery.body, delivery.event);
      const unsigned = Object.fromEntries(Object.entries(signed).filter(([name]) => !/signature|token/i.test(name)));
      await w.deliver(kind, plugin.secret, delivery, unsigned).expect(401);
      // The same JSON, pretty-printed: the signature covers the exact bytes sent.
      const reserialized = Buffer.from(JSON.stringify(JSON.parse(delivery.body.toString()), null, 2));
      const res = await w.deliver(kind, plugin.secret, { ...delivery, body: reserialized }, signed);
      // GitLab's token is not a signature over the body: there the re-serialized body is genuine.
      expect(res.status).toBe(kind === 'gitlab' ? 202 : 401);
      if (kind !== 'gitlab') {
        expect(res.body).toMatchObject({ type: expect.stringContaining('webhook-unverified') });
        expect(await w.count('webhook_delivery')).toBe(before.deliveries);
      }
      expect(await w.count('release')).toBe(before.releases);
    });

    it('an unknown repository, and a stored secret under 32 characters', async () => {
      const plugin = await w.plugin('github');
      const stranger = { ...plugin, repoUrl: `${w.forge.url}/gh/acme/nobody-registered-this` };
      await w.deliver('github', plugin.secret, w.releaseEvent(stranger, 'v1.0.0', [])).expect(401);

      const { sealWebhookSecret } = await import('../../src/publishing/webhooks/webhook-secret');
      const [row] = await w.query<{ id: string }>('SELECT id FROM plugin WHERE slug = $1', [plugin.slug]);
      const short = 's'.repeat(31);
      await w.query('UPDATE plugin_webhook SET secret_sealed = $1 WHERE plugin_id = $2', [
        sealWebhookSecret(w.app.config.keyEncryptionKey, row.id, short),
        row.id,
      ]);
      await w.deliver('github', short, w.releaseEvent(plugin, 'v1.0.0', [])).expect(401);
      expect(await w.count('webhook_delivery', plugin.slug)).toBe(0);
    });

    it('a delivery with none of the forge headers (401 problem+json, as the spec says; nothing recorded)', async () => {
      const plugin = await w.plugin('github');
      const event = w.releaseEvent(plugin, 'v3.0.0', w.releaseFiles(plugin, 'v3.0.0', w.manifest(plugin, '3.0.0')));
      const before = { deliveries: await w.count('webhook_delivery'), releases: await w.count('release') };
      for (const body of ['{}', event.body.toString()]) {
        const res = await request(w.app.url).post('/api/webhooks/release').set('Content-Type', 'application/json').send(body).expect(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({
          status: 401,
          type: expect.stringContaining('webhook-unrecognized'),
          detail: expect.stringContaining('X-GitHub-Event'),
        });
      }
      // A signature alone (no event header) is not a forge delivery either.
      const signed = webhookHeaders('github', plugin.secret, event.body, event.event);
      const withoutEvent = Object.fromEntries(Object.entries(signed).filter(([name]) => !/event/i.test(name)));
      await w.deliver('github', plugin.secret, event, withoutEvent).expect(401);
      expect(await w.count('webhook_delivery')).toBe(before.deliveries);
      expect(await w.count('release')).toBe(before.releases);
    });
  });

  it('answers ping 204 and an event it ignores 200, storing neither', async () => {
    const plugin = await w.plugin('github');
    const ping = Buffer.from(JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1, repository: { html_url: plugin.repoUrl } }));
    await w.deliver('github', plugin.secret, { event: 'ping', body: ping }).expect(204);
    const event = w.releaseEvent(plugin, 'v1.0.0', []);
    const deleted = JSON.parse(event.body.toString());
    deleted.action = 'deleted';
    const res = await w.deliver('github', plugin.secret, { event: 'release', body: Buffer.from(JSON.stringify(deleted)) }).expect(200);
    expect(res.body.status).toBe('ignored');
    expect(await w.count('webhook_delivery', plugin.slug)).toBe(0);
  });

  it('processes one delivery id once, and two deliveries of one version into one release', async () => {
    const plugin = await w.plugin('gitea');
    const event = w.releaseEvent(plugin, 'v1.1.0', w.releaseFiles(plugin, 'v1.1.0', w.manifest(plugin, '1.1.0')));
    const headers = webhookHeaders('gitea', plugin.secret, event.body, 'release');
    await w.deliver('gitea', plugin.secret, event, headers).expect(202);
    expect((await w.deliver('gitea', plugin.secret, event, headers).expect(200)).body.status).toBe('duplicate');
    // A second delivery (new id) of the same release, as a forge sends for "published" then "updated".
    const updated = JSON.parse(event.body.toString());
    updated.action = 'updated';
    await w.deliver('gitea', plugin.secret, { event: 'release', body: Buffer.from(JSON.stringify(updated)) }).expect(202);
    await w.runWorker();
    expect(await w.count('release', plugin.slug)).toBe(2);
    const statuses = (await deliveries(plugin.slug)).map((d: { status: string; reason: string | null }) => [d.status, d.reason]).sort();
    expect(statuses).toEqual([
      ['skipped', 'version-exists'],
      ['succeeded', null],
    ]);
  });

  it.each(FORGE_KINDS)(
    '%s: the same signed body replayed under a new delivery id is a duplicate (200), stored and ingested once',
    async (kind) => {
      const plugin = await w.plugin(kind);
      const event = w.releaseEvent(plugin, 'v1.2.0', w.releaseFiles(plugin, 'v1.2.0', w.manifest(plugin, '1.2.0')));
      const first = webhookHeaders(kind, plugin.secret, event.body, event.event);
      const replayed = webhookHeaders(kind, plugin.secret, event.body, event.event);
      expect(replayed).not.toEqual(first);
      await w.deliver(kind, plugin.secret, event, first).expect(202);
      const replay = await w.deliver(kind, plugin.secret, event, replayed).expect(200);
      expect(replay.body).toMatchObject({ status: 'duplicate', id: null });
      // Also once the first has been ingested.
      expect(await w.runWorker()).toBe(1);
      expect((await w.deliver(kind, plugin.secret, event).expect(200)).body.status).toBe('duplicate');
      expect(await w.runWorker()).toBe(0);
      expect(await w.count('webhook_delivery', plugin.slug)).toBe(1);
      const [release] = await w.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.version = '1.2.0'`,
        [plugin.slug],
      );
      expect(release.n).toBe(1);
      expect((await deliveries(plugin.slug)).map((d: { status: string }) => d.status)).toEqual(['succeeded']);
    },
  );

  it('strict mode without a manifest asset: a failed delivery with its reason, audited', async () => {
    const plugin = await w.plugin('github');
    await w.deliver('github', plugin.secret, w.releaseEvent(plugin, 'v3.0.0', w.releaseFiles(plugin, 'v3.0.0', null))).expect(202);
    await w.runWorker();
    const [delivery] = await deliveries(plugin.slug);
    expect(delivery).toMatchObject({ status: 'failed', reason: 'manifest-asset-missing' });
    const actions = await w.query<{ action: string; details: { reason: string } }>(
      `SELECT action, details FROM audit_entry WHERE slug = $1 AND action <> 'plugin.claim' AND action <> 'plugin.publish' ORDER BY created_at`,
      [plugin.slug],
    );
    expect(actions.map((a) => [a.action, a.details.reason])).toEqual([
      ['plugin.manifest_asset_missing', 'manifest-asset-missing'],
      ['webhook.delivery_failed', 'manifest-asset-missing'],
    ]);
    expect(await w.count('release', plugin.slug)).toBe(1);
  });

  it('with manifest.require_release_asset 0, a tag event reads the release and then the manifest at the tag through the API', async () => {
    await w.setSetting('manifest.require_release_asset', 0);
    try {
      const plugin = await w.plugin('github');
      const assets = w.releaseFiles(plugin, 'v4.0.0', null);
      const api = `${w.apiPath('github')}/repos/${plugin.repo}`;
      w.forge.json('GET', `${api}/releases/tags/v4.0.0`, {
        tag_name: 'v4.0.0',
        draft: false,
        assets: assets.map((a) => ({ name: a.name, browser_download_url: a.url })),
      });
      w.forge.route('GET', `${api}/contents/.plugin.yaml`, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/vnd.github.raw+json' });
        res.end(w.manifest(plugin, '4.0.0'));
      });
      await w.deliver('github', plugin.secret, w.tagEvent(plugin, 'v4.0.0')).expect(202);
      await w.runWorker();
      const [delivery] = await deliveries(plugin.slug);
      expect(delivery).toMatchObject({ status: 'succeeded', event: 'create', version: '4.0.0' });
      const release = (await request(w.app.url).get(`/api/plugins/${plugin.slug}/releases/4.0.0`).expect(200)).body;
      expect(release.assets).toHaveLength(1);
    } finally {
      await w.setSetting('manifest.require_release_asset', 1);
    }
  });

  it('a manifest version other than the tag fails with version-mismatch, visible to owners and admins; a replay after the fix ingests once', async () => {
    const plugin = await w.plugin('gitlab');
    let manifest = w.manifest(plugin, '5.0.1');
    const base = `/fixable/${plugin.repo}`;
    w.forge.route('GET', `${base}/plugin.yaml`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/yaml' });
      res.end(manifest);
    });
    const binary = w.releaseFiles(plugin, 'v5.0.0', null);
    await w
      .deliver(
        'gitlab',
        plugin.secret,
        w.releaseEvent(plugin, 'v5.0.0', [{ name: 'plugin.yaml', url: `${w.forge.url}${base}/plugin.yaml` }, ...binary]),
      )
      .expect(202);
    await w.runWorker();
    const [failed] = await deliveries(plugin.slug, w.adminJwt);
    expect(failed).toMatchObject({
      status: 'failed',
      reason: 'version-mismatch',
      violations: [expect.objectContaining({ path: '/version' })],
    });

    const stranger = (await import('../support/sessions')).userWithSession;
    const other = await stranger(w.app, 'not-the-owner');
    await w.as(other.jwt, 'get', `/api/plugins/${plugin.slug}/deliveries`).expect(403);
    await w.as(other.jwt, 'post', `/api/plugins/${plugin.slug}/deliveries/${failed.id}/replay`).expect(403);
    await request(w.app.url).get(`/api/plugins/${plugin.slug}/deliveries`).expect(401);
    await w.as(w.owner.jwt, 'get', '/api/plugins/no-such-plugin/deliveries').expect(404);

    manifest = w.manifest(plugin, '5.0.0');
    const replayed = await w.as(w.owner.jwt, 'post', `/api/plugins/${plugin.slug}/deliveries/${failed.id}/replay`).expect(200);
    expect(replayed.body).toMatchObject({ status: 'queued', reason: null });
    await w.as(w.owner.jwt, 'post', `/api/plugins/${plugin.slug}/deliveries/${failed.id}/replay`).expect(409);
    expect(await w.runWorker()).toBe(1);
    expect(await w.runWorker()).toBe(0);
    const [done] = await deliveries(plugin.slug);
    expect(done).toMatchObject({ id: failed.id, status: 'succeeded', version: '5.0.0' });
    expect(await w.count('release', plugin.slug)).toBe(2);
  });

  it('a release published with no delivery at all appears after a reconcile (source reconcile), once', async () => {
    const plugin = await w.plugin('github');
    const assets = w.releaseFiles(plugin, 'v6.0.0', w.manifest(plugin, '6.0.0'));
    w.forge.json('GET', `${w.apiPath('github')}/repos/${plugin.repo}/releases`, [
      { tag_name: 'v6.0.0', draft: false, assets: assets.map((a) => ({ name: a.name, browser_download_url: a.url })) },
      { tag_name: 'v7.0.0', draft: true, assets: [] },
      { tag_name: '0.1.0', draft: false, assets: [] },
    ]);
    const res = await w.as(w.adminJwt, 'post', `/api/plugins/${plugin.slug}/deliveries/reconcile`).expect(200);
    expect(res.body).toEqual({ queued: 1, tags: ['v6.0.0'] });
    // Right after, the plugin's reconcile cooldown (ratelimit.reconcile_cooldown_s) holds; once it
    // has passed, the release already queued is not queued again.
    await w.as(w.owner.jwt, 'post', `/api/plugins/${plugin.slug}/deliveries/reconcile`).expect(429);
    const clock = w.app.app.get(Clock);
    const later = new Date(clock.nowMs() + 61_000);
    const moved = jest.spyOn(clock, 'now').mockImplementation(() => later);
    try {
      expect((await w.as(w.owner.jwt, 'post', `/api/plugins/${plugin.slug}/deliveries/reconcile`).expect(200)).body.queued).toBe(0);
    } finally {
      moved.mockRestore();
    }
    await w.runWorker();
    const [delivery] = await deliveries(plugin.slug);
    expect(delivery).toMatchObject({ source: 'reconcile', status: 'succeeded', version: '6.0.0' });
    const [row] = await w.query<{ source: string }>(
      `SELECT r.source FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.version = '6.0.0'`,
      [plugin.slug],
    );
    expect(row.source).toBe('reconcile');
  });

  it('rotating the secret returns a new 64-hex secret once; the old one stops verifying', async () => {
    const plugin = await w.plugin('forgejo');
    const rotated = await w.as(w.owner.jwt, 'post', `/api/plugins/${plugin.slug}/webhook-secret`).send({}).expect(200);
    expect(rotated.body).toEqual({
      slug: plugin.slug,
      webhookUrl: `${w.app.config.baseUrl}/api/webhooks/release`,
      webhookSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const event = w.releaseEvent(plugin, 'v1.0.0', []);
    await w.deliver('forgejo', plugin.secret, event).expect(401);
    await w.deliver('forgejo', rotated.body.webhookSecret, event).expect(202);
    await w.as(w.adminJwt, 'post', `/api/plugins/${plugin.slug}/webhook-secret`).send({}).expect(403);
  });
});

describe('webhook deliveries survive a restart', () => {
  let w: WebhookWorld;

  beforeAll(async () => {
    w = await WebhookWorld.open();
  });
  afterAll(() => w?.close());

  it('a delivery accepted by a server that stopped before ingesting it is ingested by the next one', async () => {
    const plugin = await w.plugin('github');
    await w
      .deliver('github', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', w.releaseFiles(plugin, 'v1.0.0', w.manifest(plugin, '1.0.0'))))
      .expect(202);
    await w.restart({ autoStart: true });
    const deadline = Date.now() + 30_000;
    while ((await w.count('release', plugin.slug)) < 2 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(await w.count('release', plugin.slug)).toBe(2);
    await request(w.app.url).get(`/api/plugins/${plugin.slug}/releases/1.0.0`).expect(200);
  });
});
