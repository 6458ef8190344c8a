/**
 * Hostile request lines against the compiled server (docs/api-conventions.md#security-rules):
 * malformed and overlong percent-escapes, NUL, 8 KB paths, `//`, `..`, odd query strings, on every
 * public route family. The process stays up, nothing escapes to the last-resort handler, and every
 * answer is a 4xx problem+json (an HTML not-found page on the web front end's pages) or a normal
 * 2xx/3xx: never a 5xx. Requests go out as raw bytes on a socket, so no client library normalises
 * the path first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

interface RawAnswer {
  status: number;
  contentType: string;
}

/** One request as written, on its own connection; resolves with the status line and content type. */
function rawGet(base: string, target: string, method = 'GET'): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let head = '';
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${method} ${target.slice(0, 80)}`)));
    socket.on('connect', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: */*\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = head.slice(0, end).split('\r\n');
      const status = Number(lines[0].split(' ')[1]);
      const contentType =
        lines
          .find((line) => /^content-type:/i.test(line))
          ?.split(':')[1]
          .trim() ?? '';
      socket.destroy();
      resolve({ status, contentType });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed without an answer to ${method} ${target.slice(0, 80)}`)));
  });
}

/** Every public route family, with `{slug}`, `{version}`, `{name}` and `{code}` where a segment goes. */
const ROUTES = [
  '/api/plugins',
  '/api/plugins/{slug}',
  '/api/plugins/{slug}/latest',
  '/api/plugins/{slug}/stats',
  '/api/plugins/{slug}/releases/{version}',
  '/api/plugins/{slug}/releases/latest',
  '/api/plugins/{slug}/releases/{version}/manifest',
  '/api/plugins/{slug}/releases/{version}/assets/{name}',
  '/api/kinds',
  '/api/requests',
  '/api/stats',
  '/api/pages/{slug}',
  '/api/branding',
  '/api/i18n',
  '/api/features',
  '/api/init/status',
  '/.well-known/registry-key.json',
  '/openapi/json',
  '/problems/{code}',
  '/health/ready',
  '/',
  '/plugins',
  '/plugins/{slug}',
  '/wishlist',
  '/sign-in',
];

const GOOD = { slug: 'fuzzed', version: '1.0.0', name: 'fuzzed.zip', code: 'not-found' };

/** What goes where a path segment belongs. */
const SEGMENTS = [
  '%FF',
  '%',
  '%E0%A4%A',
  '%00',
  'a%00b',
  '%C0%AF',
  '%E0%80%AF',
  '%ED%A0%80',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  'x'.repeat(8192),
  '%25',
  '%C3%A9',
  '~',
  "'",
  '%22%3E%3Cscript%3E',
];

/** Query strings for every route. */
const QUERIES = [
  '?page=1e300',
  '?page[]=1',
  '?limit=-0',
  '?page=1&page=2',
  '?limit=1&limit=1',
  '?page=0x10',
  '?page=9007199254740993',
  '?page=%FF',
  '?%FF=%FF',
  `?search=${'q'.repeat(2048)}`,
  `?search=${'%E2%82%AC'.repeat(700)}`,
  '?search[a]=1',
  '?sort[]=name',
  '?ext.=1',
  '?ext.a[b]=1',
  '?locale=%00',
  '?locale=zh-Hant-TW',
  '?os=%00&arch=..',
  '?=&&&=',
  '?verified=1&verified=1',
  `?tag=${'t'.repeat(2048)}`,
];

const isWebPage = (target: string) => !/^\/(api|\.well-known|openapi|problems|health|metrics)(\/|\?|$)/.test(target);

function fill(route: string, values: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, key: string) => values[key]);
}

/** Every request line of the fuzz, deduplicated. */
function targets(): string[] {
  const all = new Set<string>();
  for (const route of ROUTES) {
    const good = fill(route, GOOD);
    for (const query of QUERIES) all.add(`${good}${query}`);
    all.add(`/${good}`);
    all.add(`${good}//`);
    all.add(`${good}/..`);
    all.add(`${good}/%2e%2e/%2e%2e/etc/passwd`);
    for (const key of route.match(/\{(\w+)\}/g) ?? []) {
      for (const segment of SEGMENTS) all.add(fill(route, { ...GOOD, [key.slice(1, -1)]: segment }));
    }
    if (!route.includes('{')) for (const segment of SEGMENTS) all.add(`${route.replace(/\/$/, '')}/${segment}`);
  }
  return [...all];
}

describe('request fuzz against the compiled server', () => {
  let db: TestDatabase;
  let files: Server;
  let server: CompiledServer;
  let url: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    files = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end('fuzzed plugin'));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const env = { ...db.env, NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', FETCH_ALLOW_HOSTS: new URL(filesUrl).host };
    server = spawnServe(env);
    url = await listening(server);

    // One real plugin, so the detail, release, manifest and asset routes reach their deepest code.
    expect((await registryCli(['users', 'create', 'fuzz-admin', '--admin'], env)).code).toBe(0);
    const jwt = (await registryCli(['sessions', 'issue', 'fuzz-admin'], env)).stdout.trim();
    const json = { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' };
    // The fuzz is one client sending well over a minute's worth of reads.
    const patched = await fetch(`${url}/api/admin/settings`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ 'ratelimit.public_read_per_min': 1_000_000 }),
    });
    expect(patched.status).toBe(200);
    const created = await fetch(`${url}/api/auth/me/tokens`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'ci', scopes: ['publish:*'] }),
    });
    const { token } = (await created.json()) as { token: string };
    const pushed = await fetch(`${url}/api/publish/fuzzed`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        manifest: 'name: fuzzed\nversion: "1.0.0"\ndescription: A plugin to fuzz\ntags: [fuzz]\n',
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'fuzzed.zip', url: `${filesUrl}/fuzzed.zip` }],
        repoUrl: 'https://example.invalid/acme/fuzzed',
      }),
    });
    expect(pushed.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServe(server);
    await new Promise((resolve) => files?.close(resolve));
    await db?.drop();
  }, 60_000);

  it('answers every hostile request line with a 4xx problem or a normal answer, and stays up', async () => {
    const all = targets();
    expect(all.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    const queue = [...all];
    // A few connections at a time: the point is hostile input, not load.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let target = queue.shift(); target !== undefined; target = queue.shift()) {
          for (const method of ['GET', 'HEAD']) {
            const answer = await rawGet(url, target, method);
            const problem = answer.contentType.startsWith('application/problem+json');
            // The web front end's pages answer a person: its not-found page is HTML.
            const page = answer.contentType.startsWith('text/html') && isWebPage(target);
            const fine =
              (answer.status >= 200 && answer.status < 400) || (answer.status >= 400 && answer.status < 500 && (problem || page));
            if (!fine) wrong.push(`${method} ${target.slice(0, 120)} -> ${answer.status} ${answer.contentType}`);
          }
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).not.toMatch(/^registry_stray_errors_total\{[^}]*\} [1-9]/m);
    expect(metrics).not.toMatch(/^registry_http_request_duration_seconds_count\{[^}]*status="5\d\d"[^}]*\}/m);
    expect(server.output()).not.toContain('an error escaped');
  }, 300_000);
});
