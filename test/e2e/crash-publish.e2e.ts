/**
 * SIGKILL of the compiled server in the middle of a push
 * (docs/operating.md#crashes-and-clients-that-go-away): the push's asset is held by
 * the fake forge, the server is killed while it waits for it, and a new server on the same
 * database (the very DATA_DIR on the embedded engine, which must recover from the crash) finds
 * no trace of the push, then takes the same push again: 201 and exactly one release.
 */
import { CrashWorld } from '../support/crash-world';

describe('SIGKILL during a push', () => {
  let w: CrashWorld;

  beforeAll(async () => {
    w = await CrashWorld.open();
  });
  afterAll(() => w?.close(), 60_000);

  const push = (url: string, token: string, assetUrl: string) =>
    fetch(`${url}/api/publish/crashy`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        manifest: 'name: crashy\nversion: "1.0.0"\n',
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'crashy.zip', url: assetUrl }],
        repoUrl: `${w.forge.url}/acme/crashy`,
      }),
    });

  /** What a push of crashy could have left: the claim, the release, its README, audit entries. */
  const traces = () =>
    w.query<{ plugins: number; owners: number; releases: number; readmes: number; audits: number }>(
      `SELECT (SELECT count(*)::int FROM plugin WHERE slug = 'crashy') AS plugins,
              (SELECT count(*)::int FROM plugin_owner o JOIN plugin p ON p.id = o.plugin_id WHERE p.slug = 'crashy') AS owners,
              (SELECT count(*)::int FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'crashy') AS releases,
              (SELECT count(*)::int FROM release_readme m JOIN release r ON r.id = m.release_id JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'crashy') AS readmes,
              (SELECT count(*)::int FROM audit_entry WHERE slug = 'crashy') AS audits`,
    );

  it('leaves nothing behind, and the same push succeeds on a restarted server', async () => {
    const first = await w.serve();
    const { token } = await w.userFor(first.url, 'crash-author');
    const held = w.forge.held('/files/crashy-held.zip');
    const pending = push(first.url, token, held.url).then(
      (res) => res.status,
      () => 'connection lost',
    );
    await held.requested;
    await w.kill(first.server);
    expect(await pending).toBe('connection lost');

    const second = await w.serve();
    expect(await traces()).toEqual([{ plugins: 0, owners: 0, releases: 0, readmes: 0, audits: 0 }]);

    const ready = w.forge.asset('/files/crashy.zip', { size: 2048 });
    const res = await push(second.url, token, ready);
    expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 201, body: { slug: 'crashy', version: '1.0.0' } });
    expect(await traces()).toEqual([{ plugins: 1, owners: 1, releases: 1, readmes: expect.any(Number), audits: 2 }]);
    expect((await fetch(`${second.url}/api/plugins/crashy/releases/1.0.0`)).status).toBe(200);
  }, 180_000);
});
