/**
 * `registry latest` end to end: the built CLI, run as a child process, against a real registry
 * behind a small HTTP proxy that passes answers through, records them, and replays a recorded one
 * (a frozen answer whose statement has expired; an older answer after a newer one was seen).
 * Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../src/common/clock';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const LIFETIME_S = 3600;

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

interface Recorded {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Passes requests to the registry and records each answer by path; replays the one it is told to. */
class ReplayProxy {
  readonly recorded = new Map<string, Recorded>();
  readonly replaying = new Map<string, Recorded>();
  private server: Server | undefined;
  url = '';

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      const replay = this.replaying.get(path);
      if (replay) return void res.writeHead(replay.status, replay.headers).end(replay.body);
      void fetch(`${this.upstream}${path}`, { method: req.method, headers: { 'user-agent': req.headers['user-agent'] ?? '' } }).then(
        async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          const headers: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['content-encoding', 'transfer-encoding', 'connection'].includes(name)) headers[name] = value;
          });
          this.recorded.set(path, { status: answer.status, headers, body });
          res.writeHead(answer.status, headers).end(body);
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('registry latest', () => {
  let w: PublishWorld;
  let proxy: ReplayProxy;
  let dir: string;
  let token: string;
  const clock = new MovableClock();
  const LATEST = '/api/plugins/tool/latest?os=linux&arch=x64';

  function cli(stateHome: string, ...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'latest', 'tool', '--os', 'linux', '--arch', 'x64', '--registry', proxy.url, ...args],
        { env: { PATH: process.env.PATH ?? '', XDG_STATE_HOME: stateHome } },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
        },
      );
    });
  }
  const stateOf = (stateHome: string) => JSON.parse(readFileSync(join(stateHome, 'registry', 'freshness.json'), 'utf8'));
  const publish = (version: string) =>
    w
      .push(token, 'tool', {
        manifest: manifestYaml({ name: 'tool', version }),
        manifestSource: 'plugin.yaml',
        version,
        assets: ['tool-linux-x64.tgz', 'tool.wasm'].map((name) => ({
          name,
          url: w.forge.asset(`/acme/tool/${version}/${name}`, { size: 100 + name.length + version.length }),
        })),
        repoUrl: `${w.forge.url}/acme/tool`,
      })
      .expect(201);

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'commands', 'latest.js')))
      throw new Error('dist/cli/commands/latest.js is missing: run `npm run build` first');
    w = await publishWorld({ FRESHNESS_LIFETIME_SECONDS: String(LIFETIME_S), RESPONSE_CACHE_TTL_S: '0' }, {}, undefined, { clock });
    token = (await w.tokenFor('cli-author', ['publish:*'])).token;
    await publish('1.0.0');
    await publish('1.1.0');
    proxy = new ReplayProxy(w.app.url);
    await proxy.start();
    dir = mkdtempSync(join(tmpdir(), 'registry-latest-'));
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await w?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('prints the version, the asset URL and its SHA-256 of a fresh answer, and remembers what it saw', async () => {
    const home = join(dir, 'fresh');
    const run = await cli(home);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(proxy.recorded.get(LATEST)!.body.toString());
    expect(run.stdout).toContain('tool 1.1.0');
    expect(run.stdout).toContain(`url     ${answer.download_url}`);
    expect(run.stdout).toContain(`sha256  ${answer.platforms['linux-x64'].sha256}`);
    expect(stateOf(home).seen[proxy.url].tool['linux-x64']).toMatchObject({
      version: '1.1.0',
      tree_size: expect.any(Number),
      issued_at: expect.any(String),
    });
  });

  it('exits 1 on a frozen answer: its statement has expired', async () => {
    // An answer the registry gave two lifetimes ago, replayed today.
    clock.offsetMs = -2 * LIFETIME_S * 1000;
    await fetch(`${proxy.url}${LATEST}`);
    clock.offsetMs = 0;
    proxy.replaying.set(LATEST, proxy.recorded.get(LATEST)!);
    try {
      const run = await cli(join(dir, 'frozen'));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^latest REFUSED for tool: EXPIRED: /);
      expect(existsSync(join(dir, 'frozen', 'registry', 'freshness.json'))).toBe(false);
    } finally {
      proxy.replaying.clear();
    }
  });

  it('exits 1 on a rolled-back answer: an older tree size than seen, and keeps what it saw', async () => {
    const home = join(dir, 'rollback');
    expect((await cli(home)).code).toBe(0);
    const old = proxy.recorded.get(LATEST)!;
    await publish('1.2.0');
    const newer = await cli(home);
    expect(newer.code).toBe(0);
    expect(newer.stdout).toContain('tool 1.2.0');
    const seen = stateOf(home).seen[proxy.url].tool['linux-x64'];
    proxy.replaying.set(LATEST, old);
    try {
      const run = await cli(home);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^latest REFUSED for tool: TREE_SIZE_ROLLBACK: /);
      expect(stateOf(home).seen[proxy.url].tool['linux-x64']).toEqual(seen);
    } finally {
      proxy.replaying.clear();
    }
  });

  it('exits 2 with the usage on a bad command line', async () => {
    const run = await cli(join(dir, 'usage'), '--os', 'plan9');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--os plan9: not linux, darwin or win32/);
  });
});
