/**
 * Concurrency caps on pushes (docs/administering.md#settings): at most `ingest.max_concurrent` at
 * once on an instance and `ingest.max_concurrent_per_user` for one user; the excess is refused at
 * once with 429 `ingest-busy` and Retry-After, recording and auditing nothing. Pushes are held in
 * flight by the fake forge, which answers their asset only when the test says so.
 */
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import type { HeldAsset } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

describe('ingest concurrency caps', () => {
  let w: PublishWorld;
  const held = new Map<string, HeldAsset>();

  /** An asset URL whose download waits until `held.get(name).release()`. */
  function heldAsset(name: string): string {
    const asset = w.forge.held(`/files/${name}`);
    held.set(name, asset);
    return asset.url;
  }

  const body = (slug: string, version: string, url: string) => ({
    manifest: manifestYaml({ name: slug, version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });

  beforeAll(async () => {
    w = await publishWorld();
    const admin = (await userWithSession(w.app, 'root', 'admin')).jwt;
    await request(w.app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin}`)
      .send({ 'ingest.max_concurrent': 2, 'ingest.max_concurrent_per_user': 1 })
      .expect(200);
  });
  afterAll(async () => {
    for (const { release } of held.values()) release();
    await w?.close();
  });

  it('refuses a second push of one user and a third on the instance, then admits them once slots free up', async () => {
    const alice = await w.tokenFor('alice', ['publish:*']);
    const bob = await w.tokenFor('bob', ['publish:*']);
    const carol = await w.tokenFor('carol', ['publish:*']);

    const aliceFirst = w.push(alice.token, 'alpha', body('alpha', '1.0.0', heldAsset('alpha-1.zip'))).then((r) => r);
    await held.get('alpha-1.zip')!.requested;
    const aliceSecond = await w.push(alice.token, 'alpha-two', body('alpha-two', '1.0.0', `${w.forge.url}/files/never`)).expect(429);
    expect(aliceSecond.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(aliceSecond.body).toMatchObject({ status: 429, type: `${w.app.config.baseUrl}/problems/ingest-busy`, retryAfter: 10 });
    expect(aliceSecond.headers['retry-after']).toBe('10');

    const bobFirst = w.push(bob.token, 'beta', body('beta', '1.0.0', heldAsset('beta-1.zip'))).then((r) => r);
    await held.get('beta-1.zip')!.requested;
    const carolRefused = await w.push(carol.token, 'gamma', body('gamma', '1.0.0', `${w.forge.url}/files/never`)).expect(429);
    expect(carolRefused.body.detail).toMatch(/this instance is ingesting 2/);

    held.get('alpha-1.zip')!.release();
    held.get('beta-1.zip')!.release();
    expect((await aliceFirst).status).toBe(201);
    expect((await bobFirst).status).toBe(201);

    // Nothing of the refused pushes was recorded or audited.
    expect(await w.count('plugin')).toBe(2);
    expect((await w.audit('plugin.publish')).map((e) => e.slug).sort()).toEqual(['alpha', 'beta']);
    expect((await w.audit()).filter((e) => e.action.startsWith('plugin.publish_'))).toEqual([]);

    const ready = w.forge.asset('/files/ready.zip', { size: 512 });
    await w.push(carol.token, 'gamma', body('gamma', '1.0.0', ready)).expect(201);
    await w.push(alice.token, 'alpha-two', body('alpha-two', '1.0.0', ready)).expect(201);
  });

  it('abandons a push whose client disconnected: the download is cancelled, nothing recorded, the slot free at once', async () => {
    const dora = await w.tokenFor('dora', ['publish:*']);
    const asset = heldAsset('gone-1.zip');
    const payload = JSON.stringify(body('gone', '1.0.0', asset));
    const client = httpRequest(`${w.app.url}/api/publish/gone`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${dora.token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
    });
    client.on('error', () => undefined);
    client.end(payload);
    await held.get('gone-1.zip')!.requested;
    client.destroy();

    // The registry closed its download of the asset.
    await held.get('gone-1.zip')!.aborted;
    // Dora's one slot is free again (the slot goes when the cancelled download has let go).
    const ready = w.forge.asset('/files/gone-ready.zip', { size: 512 });
    const deadline = Date.now() + 30_000;
    let next = await w.push(dora.token, 'gone-next', body('gone-next', '1.0.0', ready));
    while (next.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      next = await w.push(dora.token, 'gone-next', body('gone-next', '1.0.0', ready));
    }
    expect(next.status).toBe(201);

    expect(await w.app.database.dataSource.query(`SELECT 1 FROM plugin WHERE slug = 'gone'`)).toEqual([]);
    expect((await w.audit()).filter((e) => e.slug === 'gone')).toEqual([]);
    const metrics = await request(w.app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/registry_ingest_duration_seconds_count\{source="push",outcome="abandoned"\} 1/);
  });
});
