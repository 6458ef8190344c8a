/**
 * The compiled server, as `npm start` runs it, left idle past many runs of the embedded engine's
 * periodic maintenance (ANALYZE every 200 ms here), must still answer: readiness stays 200 the
 * whole time and a release published afterwards reads back. The maintenance once re-entered
 * PGlite's query lock and wedged every later query about a minute after start.
 *
 * The embedded run is the point: it runs in the embedded pass (CI runs this tier on the embedded
 * engine under Node 24). When the suite runs on PostgreSQL, the same scenario runs there instead.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listening, registryCli, spawnServe, statusOf, stopServe, type CompiledServer } from '../support/compiled-server';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ANALYZE_INTERVAL_MS = 200;
const IDLE_MS = 3_000;
const targets: ('embedded' | 'postgres')[] = process.env.DATABASE_URL ? ['postgres'] : ['embedded'];

describe.each(targets)('the compiled server on the %s database', (target) => {
  let forge: FakeForge;
  let testDatabase: TestDatabase | null = null;
  let dataDir: string;
  let env: Record<string, string>;
  let server: CompiledServer;
  let url: string;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    let databaseEnv: Record<string, string>;
    if (target === 'postgres') {
      testDatabase = await createTestDatabase();
      databaseEnv = testDatabase.env;
      dataDir = testDatabase.dataDir;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'registry-maintenance-'));
      databaseEnv = { DATA_DIR: dataDir };
    }
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      EMBEDDED_ANALYZE_INTERVAL_MS: String(ANALYZE_INTERVAL_MS),
      FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}`,
      FORGES: JSON.stringify([{ name: 'fakehub', type: 'github', webUrl: forge.url, apiUrl: `${forge.url}/api/v3` }]),
      ...databaseEnv,
    };
    server = spawnServe(env);
    url = await listening(server);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServe(server);
    await forge?.stop();
    if (testDatabase) await testDatabase.drop();
    else if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('stays ready while idle across many maintenance runs, then publishes and serves a release', async () => {
    const statuses: number[] = [];
    const idleUntil = Date.now() + IDLE_MS;
    // At least six probes however slow a loaded machine answers them.
    while (Date.now() < idleUntil || statuses.length < 6) {
      statuses.push(await statusOf(`${url}/health/ready`));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The server's own lines say why, should a probe ever fail.
    if (statuses.some((status) => status !== 200))
      throw new Error(`readiness answered ${statuses.join(' ')}; the server said:\n${server.output().slice(-20_000)}`);

    // The operator CLI joins the running server (embedded) or reaches the same database.
    const created = await registryCli(['users', 'create', 'maintainer'], env);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const issued = await registryCli(['sessions', 'issue', 'maintainer'], env);
    expect(issued.code).toBe(0);
    const jwt = issued.stdout.trim();

    const tokenRes = await fetch(`${url}/api/auth/me/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci', scopes: ['publish:*'] }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(tokenRes.status).toBe(201);
    const { token } = (await tokenRes.json()) as { token: string };

    const repo = 'acme/steady-plugin';
    const asset = forge.asset(`/${repo}/releases/download/v1.0.0/steady-plugin.zip`, { size: 4_000, seed: 3 });
    const published = await fetch(`${url}/api/publish/steady-plugin`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        manifest: manifestYaml({ name: 'steady-plugin', version: '1.0.0', description: 'Published after idling', tags: ['test'] }),
        manifestSource: 'plugin.yaml',
        version: 'v1.0.0',
        assets: [{ name: 'steady-plugin.zip', url: asset }],
        repoUrl: `${forge.url}/${repo}`,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    expect({ status: published.status, body: await published.json() }).toEqual({
      status: 201,
      body: {
        slug: 'steady-plugin',
        version: '1.0.0',
        claimed: true,
        warnings: [expect.stringContaining('README README.md was not rendered')],
      },
    });

    const release = await fetch(`${url}/api/plugins/steady-plugin/releases/1.0.0`, { signal: AbortSignal.timeout(10_000) });
    expect(release.status).toBe(200);
    const body = (await release.json()) as { version: string; assets: { name: string; size: number }[] };
    expect(body.version).toBe('1.0.0');
    expect(body.assets.map((a) => [a.name, a.size])).toEqual([['steady-plugin.zip', 4_000]]);

    expect(await statusOf(`${url}/health/ready`)).toBe(200);
  }, 120_000);
});
