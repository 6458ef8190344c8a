import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ASSET = Buffer.from('a plugin archive, mirrored\n'.repeat(40));

/**
 * The acceptance test with the built program: two `registry serve` processes, each on its
 * own database (data directory on the embedded engine, database on PostgreSQL), the second a
 * mirror of the first (`serve --mirror-of`). A release published upstream is served by the mirror
 * within seconds and `registry verify` accepts it there, proven in upstream's log (which the
 * mirror passes on), and again, consistent, once upstream grew; `registry monitor --once` through
 * the mirror finds nothing wrong; a publish to the mirror is refused.
 */
describe('a compiled mirror follows a compiled upstream', () => {
  const databases: TestDatabase[] = [];
  const servers: CompiledServer[] = [];
  let files: Server;
  const stateDir = mkdtempSync(join(tmpdir(), 'registry-mirror-log-'));

  beforeAll(async () => {
    files = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': ASSET.length }).end(ASSET),
    );
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const server of servers) await stopServe(server);
    await new Promise((resolve) => files?.close(resolve));
    for (const db of databases) await db.drop();
    rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  it("serves upstream's release and log, verified and monitored by the CLI, and refuses publishing", async () => {
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
    const publish = (url: string, version = '1.0.0') =>
      fetch(`${url}/api/publish/far-copy`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          manifest: `name: far-copy\nversion: "${version}"\n`,
          manifestSource: 'plugin.yaml',
          version,
          assets: [{ name: 'far-copy.zip', url: `${filesUrl}/far-copy.zip` }],
          repoUrl: 'https://example.invalid/acme/far-copy',
        }),
      });
    expect((await publish(upUrl)).status).toBe(201);

    const latest = await eventually(
      async () => {
        const res = await fetch(`${mirrorUrl}/api/plugins/far-copy/latest`);
        return res.status === 200 ? ((await res.json()) as { version: string }) : null;
      },
      'far-copy on the mirror',
      20_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${mirror.output()}`);
    });
    expect(latest.version).toBe('1.0.0');

    // The mirror serves upstream's log: the copy is proven in it, under upstream's signed head.
    const cliEnv = { XDG_STATE_HOME: stateDir };
    const upOrigin = `${new URL(upUrl).host}/log`;
    const verified = await registryCli(['verify', 'far-copy@1.0.0', '--registry', mirrorUrl], cliEnv);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('verified far-copy@1.0.0');
    expect(verified.stdout).toContain(
      `asset far-copy.zip  sha256 ${createHash('sha256').update(ASSET).digest('hex')}  ${ASSET.length} bytes`,
    );
    expect(verified.stdout).toMatch(
      new RegExp(`in transparency log ${upOrigin.replace(/\./g, '\\.')} as entry 1 \\(release\\) of tree size 2: inclusion verified`),
    );

    // Upstream grows; the next verify through the mirror checks the new head extends the one it remembered.
    expect((await publish(upUrl, '1.1.0')).status).toBe(201);
    await eventually(
      async () => ((await fetch(`${mirrorUrl}/api/plugins/far-copy/releases/1.1.0`)).status === 200 ? true : null),
      'far-copy@1.1.0 on the mirror',
      20_000,
    );
    // At once: the mirror forgets the head it kept when it copies a release upstream logged since.
    const again = await registryCli(['verify', 'far-copy@1.1.0', '--registry', mirrorUrl], cliEnv);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('as entry 2 (release) of tree size 3: inclusion verified');
    expect(again.stdout).toContain('tree head of size 3 is consistent with the head of size 2 seen before');

    // The monitor follows upstream's log through the mirror and finds every release served as logged.
    const monitored = await registryCli(['monitor', mirrorUrl, '--once'], cliEnv);
    expect(monitored.stderr).toBe('');
    expect(monitored.code).toBe(0);
    expect(monitored.stdout).toBe(`${upOrigin}: read entries 0..2 (tree size 3), re-verified 2 release(s)\n`);

    const refused = await publish(mirrorUrl);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ status: 503, type: expect.stringContaining('read-only-mirror'), upstream: upUrl });
  }, 120_000);
});
