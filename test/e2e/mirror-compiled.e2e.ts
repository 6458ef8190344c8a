import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ASSET = Buffer.from('a plugin archive, mirrored\n'.repeat(40));

/**
 * The acceptance test with the built program: two `registry serve` processes, each on its
 * own database (data directory on the embedded engine, database on PostgreSQL), the second a
 * mirror of the first (`serve --mirror-of`). A release published upstream is served by the mirror
 * within seconds and `registry verify` accepts it there; a publish to the mirror is refused.
 */
describe('a compiled mirror follows a compiled upstream', () => {
  const databases: TestDatabase[] = [];
  const servers: CompiledServer[] = [];
  let files: Server;

  beforeAll(async () => {
    files = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': ASSET.length }).end(ASSET));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const server of servers) await stopServe(server);
    await new Promise((resolve) => files?.close(resolve));
    for (const db of databases) await db.drop();
  }, 60_000);

  it('serves upstream\'s release, verified by the CLI, and refuses publishing', async () => {
    const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const [upDb, mirrorDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    databases.push(upDb, mirrorDb);
    const common = { NODE_ENV: 'test', LOG_LEVEL: 'info', FETCH_ALLOW_HOSTS: '127.0.0.1' };
    // Links (asset routes) are built from BASE_URL: loopback addresses the mirror and the CLI reach.
    const at = async () => {
      const port = String(await freePort());
      return { PORT: port, BASE_URL: `http://127.0.0.1:${port}` };
    };
    const upEnv = { ...upDb.env, ...common, ...(await at()) };
    const upstream = spawnServe(upEnv);
    servers.push(upstream);
    const upUrl = await listening(upstream);
    // Two registries, not two instances of one: the mirror shares no Redis (response cache, buses) with upstream.
    const { REDIS_URL: _shared, ...mirrorDbEnv } = mirrorDb.env;
    const mirror = spawnServe({ ...mirrorDbEnv, ...common, ...(await at()), MIRROR_POLL_INTERVAL_MS: '200' }, ['--mirror-of', upUrl]);
    servers.push(mirror);
    const mirrorUrl = await listening(mirror);

    expect((await registryCli(['users', 'create', 'mirror-author'], upEnv)).code).toBe(0);
    const jwt = (await registryCli(['sessions', 'issue', 'mirror-author'], upEnv)).stdout.trim();
    const created = await fetch(`${upUrl}/api/auth/me/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci', scopes: ['publish:*'] }),
    });
    const { token } = (await created.json()) as { token: string };
    const publish = (url: string) =>
      fetch(`${url}/api/publish/far-copy`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          manifest: 'name: far-copy\nversion: "1.0.0"\n',
          manifestSource: 'plugin.yaml',
          version: '1.0.0',
          assets: [{ name: 'far-copy.zip', url: `${filesUrl}/far-copy.zip` }],
          repoUrl: 'https://example.invalid/acme/far-copy',
        }),
      });
    expect((await publish(upUrl)).status).toBe(201);

    const latest = await eventually(async () => {
      const res = await fetch(`${mirrorUrl}/api/plugins/far-copy/latest`);
      return res.status === 200 ? ((await res.json()) as { version: string }) : null;
    }, 'far-copy on the mirror', 20_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${mirror.output()}`);
    });
    expect(latest.version).toBe('1.0.0');

    const verified = await registryCli(['verify', 'far-copy@1.0.0', '--registry', mirrorUrl], {});
    // A mirror keeps no transparency log of its own (its upstream logs the release): said, not failed.
    expect(verified.stderr).toBe("warning: far-copy@1.0.0 has no transparency log entry here (released before the log, or a mirror's copy: its upstream logs it): inclusion not checked\n");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('verified far-copy@1.0.0');
    expect(verified.stdout).toContain(`asset far-copy.zip  sha256 ${createHash('sha256').update(ASSET).digest('hex')}  ${ASSET.length} bytes`);

    const refused = await publish(mirrorUrl);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ status: 503, type: expect.stringContaining('read-only-mirror'), upstream: upUrl });
  }, 120_000);
});
