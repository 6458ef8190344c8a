/**
 * `registry verify` end to end: the built binary, run as a child process, against a real HTTP
 * server standing in for the registry.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signPayload } from '../../src/lib/integrity/jws';
import {
  ASSET_BYTES,
  demoPayload,
  keyA,
  keyB,
  keyC,
  OTHER_ASSET_BYTES,
  signedRelease,
} from '../../src/lib/integrity/testdata/signing-fixtures';
import type { KeySet, ReleaseRecord } from '../../src/lib/integrity/types';
import { ensureBuilt } from '../support/built-dist';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const SAVED_KEY_SET = join(__dirname, 'fixtures', 'verify', 'saved-key-set.json');

const RELEASE_PATH = '/api/plugins/demo/releases/1.0.0';
const KEYS_PATH = '/.well-known/registry-key.json';

interface Route {
  status: number;
  body: Buffer;
  type: string;
}

/** The fake registry: a route table the tests rewrite, and a log of the paths requested. */
class FakeRegistry {
  readonly routes = new Map<string, Route>();
  readonly requests: string[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      this.requests.push(path);
      const route = this.routes.get(path) ?? { status: 404, body: Buffer.from('{"message":"not found"}'), type: 'application/json' };
      response.writeHead(route.status, { 'content-type': route.type, 'content-length': route.body.length });
      response.end(route.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.server?.close((error) => (error ? reject(error) : resolve())));
  }

  json(path: string, value: unknown, status = 200): void {
    this.routes.set(path, { status, body: Buffer.from(JSON.stringify(value)), type: 'application/json' });
  }

  bytes(path: string, body: Uint8Array): void {
    this.routes.set(path, { status: 200, body: Buffer.from(body), type: 'application/octet-stream' });
  }

  hits(path: string): number {
    return this.requests.filter((requested) => requested === path).length;
  }

  /** A release of demo@1.0.0 signed by key A, with a key set of {B, A}, and both assets served. */
  serveGenuineRelease(): ReleaseRecord {
    this.routes.clear();
    this.requests.length = 0;
    const release = signedRelease();
    // One relative and one absolute URL: both must resolve against the registry.
    release.assets = release.assets.map((asset, index) => ({ ...asset, url: index === 0 ? asset.url : `${this.url}${asset.url}` }));
    this.json(RELEASE_PATH, release);
    this.json(KEYS_PATH, { keys: [keyB.jwk, keyA.jwk] } satisfies KeySet);
    this.bytes('/downloads/demo.zip', ASSET_BYTES);
    this.bytes('/downloads/demo-extra.bin', OTHER_ASSET_BYTES);
    return release;
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...options.env };
  return new Promise((resolve) => {
    // Asynchronous on purpose: the fake registry lives in this process and must keep serving.
    execFile(process.execPath, [BIN, ...args], { cwd: options.cwd, env, timeout: 30000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const registry = new FakeRegistry();
let workDir: string;

beforeAll(async () => {
  ensureBuilt(['dist/cli/commands/verify.js'], ['src/cli', 'src/lib']);
  await registry.start();
  workDir = mkdtempSync(join(tmpdir(), 'registry-verify-cli-'));
}, 120000);

afterAll(async () => {
  await registry.stop();
  rmSync(workDir, { recursive: true, force: true });
});

beforeEach(() => {
  registry.serveGenuineRelease();
});

function verify(...extra: string[]): Promise<Run> {
  return runCli(['verify', 'demo@1.0.0', '--registry', registry.url, ...extra], { cwd: workDir });
}

describe('registry verify', () => {
  it('verifies the signature and every asset, printing what was verified', async () => {
    const run = await verify();
    // These fixtures predate the transparency log (no log_index): a warning, not a failure
    // (the log itself is tested in transparency-log.test.ts).
    expect(run.stderr).toBe(
      "warning: demo@1.0.0 names no transparency log entry (released before the log, or copied by a mirror before mirrors served their upstream's log): inclusion not checked\n",
    );
    expect(run.code).toBe(0);
    const payload = demoPayload();
    expect(run.stdout).toContain('verified demo@1.0.0');
    expect(run.stdout).toContain(`kid ${keyA.jwk.kid}`);
    for (const asset of payload.assets) {
      expect(run.stdout).toContain(`asset ${asset.name}  sha256 ${asset.sha256}  ${asset.size} bytes`);
    }
    // A HEAD resolves each download link (a registry counts only GETs), then one GET streams it.
    expect(registry.hits('/downloads/demo.zip')).toBe(2);
    expect(registry.hits('/downloads/demo-extra.bin')).toBe(2);
  });

  it('verifies only the named asset with --asset', async () => {
    const run = await verify('--asset', 'demo-extra.bin');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('asset demo-extra.bin');
    expect(run.stdout).not.toContain('asset demo.zip');
    expect(registry.hits('/downloads/demo.zip')).toBe(0);
  });

  it('takes the registry from REGISTRY_URL when --registry is absent', async () => {
    const run = await runCli(['verify', 'demo@1.0.0', '--asset', 'demo.zip'], { cwd: workDir, env: { REGISTRY_URL: registry.url } });
    expect(run.code).toBe(0);
    expect(registry.hits(RELEASE_PATH)).toBe(1);
  });

  it('exits 1 naming HASH_MISMATCH when a served asset was tampered with', async () => {
    const tampered = ASSET_BYTES.slice();
    tampered[0] ^= 0xff;
    registry.bytes('/downloads/demo.zip', tampered);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('HASH_MISMATCH');
    expect(run.stderr).toContain('Asset altered or corrupted.');
    expect(run.stdout).toBe('');
  });

  it('exits 1 naming KID_UNKNOWN after exactly one key-set refresh when the signing key is not published', async () => {
    registry.json(KEYS_PATH, { keys: [keyC.jwk, keyB.jwk] });
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('KID_UNKNOWN');
    expect(run.stderr).toContain('Release predates both current keys.');
    expect(registry.hits(KEYS_PATH)).toBe(2);
  });

  it("exits 1 naming PAYLOAD_MISMATCH when another release's signed record is served", async () => {
    const other = signedRelease(demoPayload({ version: '0.9.0' }));
    registry.json(RELEASE_PATH, { ...other, version: '1.0.0' });
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PAYLOAD_MISMATCH');
  });

  it('exits 1 naming INTEGRITY_MISSING for a legacy release', async () => {
    const { integrity: _omitted, ...legacy } = signedRelease();
    registry.json(RELEASE_PATH, legacy);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('INTEGRITY_MISSING');
  });

  describe('--keys FILE', () => {
    it('verifies against a saved key set without asking the registry for keys', async () => {
      registry.json(KEYS_PATH, { message: 'down' }, 500);
      const run = await verify('--keys', SAVED_KEY_SET);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`kid ${keyA.jwk.kid}`);
      expect(registry.hits(KEYS_PATH)).toBe(0);
    });

    it('holds exactly the fixture keys A and B (the file must match the signing fixtures)', () => {
      expect(JSON.parse(readFileSync(SAVED_KEY_SET, 'utf8'))).toEqual({ keys: [keyB.jwk, keyA.jwk] });
    });

    it('cannot refresh a saved set: an unknown kid fails at once', async () => {
      writeFileSync(join(workDir, 'rotated.json'), JSON.stringify({ keys: [keyC.jwk, keyB.jwk] }));
      const run = await verify('--keys', 'rotated.json');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('KID_UNKNOWN');
      expect(registry.hits(KEYS_PATH)).toBe(0);
    });
  });

  describe('--file PATH', () => {
    it('hashes a local file (relative to the cwd) instead of downloading', async () => {
      writeFileSync(join(workDir, 'local-demo.zip'), ASSET_BYTES);
      const run = await verify('--asset', 'demo.zip', '--file', 'local-demo.zip');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`asset demo.zip  sha256 ${demoPayload().assets[0]!.sha256}`);
      expect(registry.hits('/downloads/demo.zip')).toBe(0);
    });

    it('needs no --asset when the release has exactly one asset', async () => {
      const single = signedRelease(demoPayload({ assets: [demoPayload().assets[0]!] }));
      registry.json(RELEASE_PATH, single);
      writeFileSync(join(workDir, 'only.zip'), ASSET_BYTES);
      const run = await verify('--file', join(workDir, 'only.zip'));
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('asset demo.zip');
    });

    it('exits 1 naming HASH_MISMATCH for a local file with other bytes', async () => {
      writeFileSync(join(workDir, 'other.zip'), OTHER_ASSET_BYTES);
      const run = await verify('--asset', 'demo.zip', '--file', 'other.zip');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('HASH_MISMATCH');
    });

    it('exits 1 naming ASSET_NOT_SIGNED for a name absent from the signed payload', async () => {
      writeFileSync(join(workDir, 'huge.iso'), 'x');
      const run = await verify('--asset', 'huge.iso', '--file', 'huge.iso');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('ASSET_NOT_SIGNED');
      expect(run.stderr).toContain('hash budget');
    });
  });

  describe('usage and reachability (exit 2)', () => {
    it.each<[string, string[]]>([
      ['no target', ['verify']],
      ['a target without version', ['verify', 'demo']],
      ['an unknown option', ['verify', 'demo@1.0.0', '--frobnicate']],
      ['--file with several assets and no --asset', ['verify', 'demo@1.0.0', '--file', 'x']],
    ])('%s', async (_label, args) => {
      const run = await runCli([...args, '--registry', registry.url], { cwd: workDir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: registry verify');
    });

    it('a registry that is not an http(s) URL', async () => {
      const run = await runCli(['verify', 'demo@1.0.0', '--registry', 'ftp://registry.example'], { cwd: workDir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('not an http(s) URL');
    });

    it('an unreachable registry', async () => {
      const closed = new FakeRegistry();
      await closed.start();
      await closed.stop();
      const run = await runCli(['verify', 'demo@1.0.0', '--registry', closed.url], { cwd: workDir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('cannot reach');
    });

    it('a release the registry does not have', async () => {
      const run = await runCli(['verify', 'demo@9.9.9', '--registry', registry.url], { cwd: workDir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('HTTP 404');
    });
  });

  it('re-signing with the current key keeps verification working (JWS replaced, Versioning 6)', async () => {
    const release = registry.serveGenuineRelease();
    const resigned = signPayload(demoPayload(), keyB.privateKey, keyB.jwk.kid);
    registry.json(RELEASE_PATH, { ...release, integrity: { ...release.integrity!, jws: resigned } });
    const run = await verify('--asset', 'demo.zip');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`kid ${keyB.jwk.kid}`);
  });
});
