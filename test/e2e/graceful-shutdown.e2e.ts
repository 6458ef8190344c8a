/**
 * Graceful shutdown of the compiled server (docs/operating.md#stopping-sigterm): on SIGTERM it
 * stops accepting connections, lets a push that is under way finish (its asset is held by the test
 * until the server has stopped listening), writes the download counts, and exits 0; a restart finds
 * both releases and the count. Ordering comes from events, never from sleeps.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listening, registryCli, spawnServe, statusOf, stopServe, type CompiledServer } from '../support/compiled-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ASSET = Buffer.alloc(4096, 7);

async function untilRefused(url: string, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if ((await statusOf(url, 2_000)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} still answers`);
}

describe('SIGTERM on the compiled server', () => {
  let db: TestDatabase;
  let files: Server;
  let held: ServerResponse | null = null;
  let slowRequested: Promise<void>;
  const servers: CompiledServer[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    let announce: () => void;
    slowRequested = new Promise((resolve) => (announce = resolve));
    files = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/slow.zip') {
        held = res;
        announce();
        return;
      }
      if (req.url === '/README.md') {
        res.writeHead(200, { 'Content-Type': 'text/markdown' }).end('# Graceful\n\nRendered after SIGTERM.\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': ASSET.length }).end(ASSET);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    held?.destroy();
    for (const server of servers) await stopServe(server);
    await new Promise((resolve) => files.close(resolve));
    await db.drop();
  }, 60_000);

  it('finishes the push under way, writes download counts and exits 0', async () => {
    const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const env = { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', FETCH_ALLOW_HOSTS: new URL(filesUrl).host };
    const serve = () => {
      const server = spawnServe(env);
      servers.push(server);
      return server;
    };
    const server = serve();
    const url = await listening(server);

    expect((await registryCli(['users', 'create', 'shutdown-author'], env)).code).toBe(0);
    const jwt = (await registryCli(['sessions', 'issue', 'shutdown-author'], env)).stdout.trim();
    const created = await fetch(`${url}/api/auth/me/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci', scopes: ['publish:*'] }),
    });
    const { token } = (await created.json()) as { token: string };
    const push = (version: string, asset: string) =>
      fetch(`${url}/api/publish/graceful`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          manifest: `name: graceful\nversion: "${version}"\nreadme: ${filesUrl}/README.md\n`,
          manifestSource: 'plugin.yaml',
          version,
          assets: [{ name: 'graceful.zip', url: `${filesUrl}/${asset}` }],
          repoUrl: 'https://example.invalid/acme/graceful',
        }),
      });

    expect((await push('1.0.0', 'fast.zip')).status).toBe(201);
    const download = await fetch(`${url}/api/plugins/graceful/releases/1.0.0/assets/graceful.zip`, { redirect: 'manual' });
    expect(download.status).toBe(302);

    const slow = push('1.0.1', 'slow.zip');
    await slowRequested;
    server.child.kill('SIGTERM');
    await untilRefused(`${url}/health/live`);
    held!.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': ASSET.length }).end(ASSET);

    const answered = await slow;
    // Its README is rendered after SIGTERM too: the render workers stop only once requests are done.
    expect({ status: answered.status, body: await answered.json() }).toMatchObject({
      status: 201,
      body: { slug: 'graceful', version: '1.0.1', warnings: [] },
    });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('finishing in-flight requests and stopping');

    const again = serve();
    const againUrl = await listening(again);
    const first = (await (await fetch(`${againUrl}/api/plugins/graceful/releases/1.0.0`)).json()) as { downloads: number };
    expect(first.downloads).toBe(1);
    expect((await fetch(`${againUrl}/api/plugins/graceful/releases/1.0.1`)).status).toBe(200);
    expect(await stopServe(again)).toBe(0);
  }, 180_000);
});
