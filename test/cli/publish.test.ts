/**
 * `registry publish` end to end: the built binary, run as a child process, against a real
 * registry started by the test, with release assets on the fake forge.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FakeForge } from '../support/fake-forge';
import { publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const BIN = join(__dirname, '..', '..', 'bin', 'registry.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI asynchronously: the registry answering it lives in this very process. */
function registry(cwd: string, env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'publish', ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', REGISTRY_RETRY_DELAY_MS: '20', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
      },
    );
  });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A registry whose answers to pushes can be lost: the push reaches the registry and is recorded,
 * and the client gets a 503 instead of the answer, as when the database goes away as it commits.
 */
async function answerLosingProxy(
  upstream: string,
): Promise<{ url: string; losses: number; loseNext(count: number): void; close(): Promise<void> }> {
  let toLose = 0;
  const state = { losses: 0 };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
        ) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body });
        const text = Buffer.from(await answer.arrayBuffer());
        if (req.method === 'POST' && req.url!.startsWith('/api/publish/') && toLose > 0) {
          toLose -= 1;
          state.losses += 1;
          res
            .writeHead(503, { 'Content-Type': 'application/problem+json', 'Retry-After': '1' })
            .end(JSON.stringify({ status: 503, detail: 'the answer was lost' }));
          return;
        }
        res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/octet-stream' }).end(text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get losses() {
      return state.losses;
    },
    loseNext(count: number) {
      toLose = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('registry publish', () => {
  let w: PublishWorld;
  let token: string;
  let dir: string;
  let env: Record<string, string>;

  const writeManifest = (version: string, extra = '') =>
    writeFileSync(join(dir, '.plugin.yaml'), `name: cli-plugin\nversion: "${version}"\n${extra}`);

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('cli-author', ['publish:*'])).token;
    dir = mkdtempSync(join(tmpdir(), 'registry-publish-'));
    env = { REGISTRY_TOKEN: token, REGISTRY_URL: w.app.url };
  });
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims a new plugin on the first push and prints the signed assets', async () => {
    writeManifest('1.0.0');
    const url = w.forge.asset('/acme/cli-plugin/1.0.0/cli-plugin.zip', { size: 4096, seed: 9 });
    const run = await registry(dir, env, '--asset', `cli-plugin.zip=${url}`, '--repo-url', `${w.forge.url}/acme/cli-plugin`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^published cli-plugin@1\.0\.0 \(claimed the new plugin name\)\n {2}signed cli-plugin\.zip {2}sha256 [0-9a-f]{64} {2}4096 bytes\n/,
    );
  });

  it('publishes the next version without claiming, taking sha256 and size from a local file', async () => {
    writeManifest('1.1.0');
    const local = join(dir, 'cli-plugin.zip');
    writeFileSync(local, Buffer.alloc(2048, 7));
    w.forge.route('GET', '/acme/cli-plugin/1.1.0/cli-plugin.zip', (_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(2048, 7));
    });
    const run = await registry(dir, env, '--asset-file', `cli-plugin.zip=${w.forge.url}/acme/cli-plugin/1.1.0/cli-plugin.zip`, '--json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ slug: 'cli-plugin', version: '1.1.0', claimed: false });
    expect(result.signedAssets).toEqual([
      { name: 'cli-plugin.zip', sha256: createHash('sha256').update(Buffer.alloc(2048, 7)).digest('hex'), size: 2048 },
    ]);
  });

  it('refuses a local file that differs from what the registry downloads (422, exit 1)', async () => {
    writeManifest('1.2.0');
    writeFileSync(join(dir, 'cli-plugin.zip'), 'built here');
    const url = w.forge.asset('/acme/cli-plugin/1.2.0/cli-plugin.zip', { size: 100 });
    const run = await registry(dir, env, '--asset-file', `cli-plugin.zip=${url}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('refused (HTTP 422)');
    expect(run.stderr).toContain('/assets/0/sha256');
  });

  it('exits 1 with the 409 explained when the version exists', async () => {
    writeManifest('1.0.0');
    const url = w.forge.asset('/acme/cli-plugin/again/cli-plugin.zip', { size: 10 });
    const run = await registry(dir, env, '--asset', `cli-plugin.zip=${url}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('refused (HTTP 409)');
    expect(run.stderr).toContain('bump the version');
  });

  it('never reaches the network with an invalid manifest', async () => {
    const watcher = await new FakeForge().start();
    try {
      writeManifest('1.3.0', 'tags: "not-a-list"\n');
      const run = await registry(dir, { ...env, REGISTRY_URL: watcher.url }, '--asset', 'cli-plugin.zip=https://example.invalid/x.zip');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('/tags');
      expect(watcher.requests).toEqual([]);
    } finally {
      await watcher.stop();
    }
  });

  it('exits 2 with a hint without a token, and refuses a token given as an argument', async () => {
    writeManifest('1.3.0');
    const missing = await registry(dir, { REGISTRY_URL: w.app.url }, '--asset', 'a=https://h/a');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('set REGISTRY_TOKEN');
    const argument = await registry(dir, env, '--token', token, '--asset', 'a=https://h/a');
    expect(argument.code).toBe(2);
    expect(argument.stderr).toContain('never taken from the command line');
    expect(argument.stderr).not.toContain(token);
    const cleartext = await registry(dir, { ...env, REGISTRY_URL: 'http://registry.example.org' }, '--asset', 'a=https://h/a');
    expect(cleartext.code).toBe(2);
    expect(cleartext.stderr).toContain('clear text');
  });

  it('exits 3 when the registry cannot be reached after retries, and --dry-run sends nothing', async () => {
    writeManifest('1.3.0');
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const down = await registry(dir, { ...env, REGISTRY_URL: nowhere }, '--asset', 'a=https://h/a');
    expect(down.code).toBe(3);
    expect(down.stderr.match(/retrying/g)).toHaveLength(3);
    const dry = await registry(dir, { ...env, REGISTRY_URL: nowhere }, '--asset', 'a=https://h/a', '--dry-run');
    expect(dry.code).toBe(0);
    const request = JSON.parse(dry.stdout);
    expect(request).toMatchObject({ method: 'POST', url: `${nowhere}/api/publish/cli-plugin`, authorization: 'Bearer [REGISTRY_TOKEN]' });
    expect(dry.stdout).not.toContain(token);
    expect(dry.stderr).toContain(`warning: reading the kinds of ${nowhere} failed`);
  });

  it('takes a release its lost answer had recorded as its own when the retry finds it, and only one with its manifest', async () => {
    const losing = await answerLosingProxy(w.app.url);
    try {
      writeManifest('1.4.0');
      const url = w.forge.asset('/acme/cli-plugin/1.4.0/cli-plugin.zip', { size: 512, seed: 4 });
      losing.loseNext(1);
      const run = await registry(dir, { ...env, REGISTRY_URL: losing.url }, '--asset', `cli-plugin.zip=${url}`);
      expect(losing.losses).toBe(1);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        "an earlier attempt's answer was lost, but the registry recorded its release: cli-plugin@1.4.0 has this manifest",
      );
      expect(run.stdout).toMatch(/^published cli-plugin@1\.4\.0\n {2}signed cli-plugin\.zip {2}sha256 [0-9a-f]{64} {2}512 bytes\n/);

      // Another manifest under the same version is somebody else's release: refused as ever.
      writeManifest('1.4.0', 'description: "built again"\n');
      losing.loseNext(1);
      const other = await registry(dir, { ...env, REGISTRY_URL: losing.url }, '--asset', `cli-plugin.zip=${url}`);
      expect(losing.losses).toBe(2);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain('refused (HTTP 409)');
    } finally {
      await losing.close();
    }
  });

  describe("with the registry's kinds and extension fields", () => {
    const writeThemed = (version: string, extra: string) =>
      writeFileSync(join(dir, '.plugin.yaml'), `name: themed-plugin\nversion: "${version}"\nkind: theme\n${extra}`);

    beforeAll(async () => {
      const { jwt } = await userWithSession(w.app, 'kinds-admin', 'admin');
      const admin = `Bearer ${jwt}`;
      await request(w.app.url)
        .post('/api/admin/kinds')
        .set('Authorization', admin)
        .send({
          key: 'theme',
          label: 'Theme',
          extensionFields: [{ key: 'colors', type: 'string[]', required: true, enum: ['dark', 'light'] }],
        })
        .expect(201);
      await request(w.app.url)
        .put('/api/admin/extension-fields')
        .set('Authorization', admin)
        .send({ fields: [{ key: 'audience', type: 'string', enum: ['dev', 'ops'] }] })
        .expect(200);
    });

    it("publishes a manifest with extension fields (its kind's and a global one)", async () => {
      writeThemed('1.0.0', 'colors: [dark]\naudience: dev\n');
      const url = w.forge.asset('/acme/themed-plugin/1.0.0/themed.zip', { size: 64 });
      const run = await registry(dir, env, '--asset', `themed.zip=${url}`, '--repo-url', `${w.forge.url}/acme/themed-plugin`);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^published themed-plugin@1\.0\.0 \(claimed the new plugin name\)\n/);
      const plugin = await request(w.app.url).get('/api/plugins/themed-plugin').expect(200);
      expect(JSON.stringify(plugin.body)).toContain('"audience":"dev"');
    });

    it("refuses, before any push, a manifest that breaks the registry's extension fields", async () => {
      const releases = await w.count('release');
      writeThemed('1.1.0', 'colors: [purple]\naudience: nobody\nundeclared: 1\n');
      const url = w.forge.asset('/acme/themed-plugin/1.1.0/themed.zip', { size: 64 });
      const run = await registry(dir, env, '--asset', `themed.zip=${url}`);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('.plugin.yaml: 3 violation(s)');
      expect(run.stderr).toContain('  /colors/0: must be one of "dark", "light"');
      expect(run.stderr).toContain('  /audience: must be one of "dev", "ops"');
      expect(run.stderr).toContain('  /undeclared: is not a known field');
      expect(await w.count('release')).toBe(releases);
    });

    it('with --offline, reads no kinds: an unknown field is a warning and the registry decides', async () => {
      writeThemed('1.1.0', 'colors: [dark]\nundeclared: 1\n');
      const watcher = await new FakeForge().start();
      try {
        const dry = await registry(
          dir,
          { ...env, REGISTRY_URL: watcher.url },
          '--offline',
          '--dry-run',
          '--asset',
          'themed.zip=https://h/t.zip',
        );
        expect(dry.code).toBe(0);
        expect(dry.stderr.split('\n')).toEqual([
          'registry publish: warning: /colors: is not a field of the manifest format; not checked: it must be an extension field the registry declares',
          'registry publish: warning: /undeclared: is not a field of the manifest format; not checked: it must be an extension field the registry declares',
          '',
        ]);
        expect(watcher.requests).toEqual([]);
      } finally {
        await watcher.stop();
      }
      const url = w.forge.asset('/acme/themed-plugin/1.1.0/themed.zip', { size: 64 });
      const pushed = await registry(dir, env, '--offline', '--asset', `themed.zip=${url}`);
      expect(pushed.code).toBe(1);
      expect(pushed.stderr).toContain('registry publish: warning: /undeclared');
      expect(pushed.stderr).toContain('refused (HTTP 422)');
      expect(pushed.stderr).toContain('/undeclared');
    });
  });
});
