/**
 * `registry verify` and `registry monitor` against the transparency log
 * (docs/verifying-downloads.md#with-the-registry-cli): the built binary, run as a child process,
 * against a real registry in this process (real database, real publishing). A small proxy in front
 * of it plays the registry that shows one client another view: it passes everything through except
 * the answers a test rewrites.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntegrityService } from '../../src/trust/integrity/integrity.service';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { keyB } from '../../src/lib/integrity/testdata/signing-fixtures';
import { decodeEntryBundle, encodeEntryBundle, formatCheckpoint, leafHash, signNote, type LogEntry } from '../../src/lib/transparency';
import { LogHeads } from '../../src/trust/transparency/log-heads';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { RewritingProxy } from '../support/rewriting-proxy';
import { RotationWorld } from '../support/rotation-world';
import { ensureBuilt } from '../support/built-dist';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    // Asynchronous: the registry and the proxy live in this process and must keep serving.
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/** The fenced block of docs/verifying-downloads.md whose first line names `file`. */
function docScript(file: string): string {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'verifying-downloads.md'), 'utf8');
  const block = page.split(/^```[a-z]*\n/m).find((part, i) => i % 2 === 1 && part.split('\n', 1)[0]!.includes(`${file} — usage`));
  if (!block) throw new Error(`docs/verifying-downloads.md has no ${file}`);
  return block.slice(0, block.indexOf('```'));
}

function run(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const json = (body: Buffer): Record<string, unknown> => JSON.parse(body.toString('utf8')) as Record<string, unknown>;
const asJson = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('the transparency log from the command line', () => {
  let world: RotationWorld;
  let proxy: RewritingProxy;
  let dir: string;
  let origin: string;
  const state = (name: string): string => join(dir, `${name}.json`);
  const remembered = (file: string, registry: string) =>
    (JSON.parse(readFileSync(file, 'utf8')) as { heads: Record<string, { size: number; root_hash: string }> }).heads[registry];

  /** A checkpoint the registry's own key signs: a compromised registry showing one client another tree. */
  async function forgedHead(size: number, root: Uint8Array): Promise<Buffer> {
    const signer = await world.app.app.get(IntegrityService).currentSigner();
    const text = formatCheckpoint({ origin, size, rootHash: root, extensions: [] });
    return Buffer.from(await signNote(text, [{ name: origin, publicKey: signer.publicKey, sign: (message) => signer.sign(message) }]));
  }

  beforeAll(async () => {
    ensureBuilt(['dist/cli/commands/monitor.js', 'dist/cli/log-client.js'], ['src/cli', 'src/lib']);
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    await world.app.app.get(ReleaseResignWorker).stop();
    origin = world.app.app.get(LogHeads).origin;
    proxy = await new RewritingProxy(world.app.url).start();
    dir = mkdtempSync(join(tmpdir(), 'registry-log-cli-'));
    await world.publish('alpha', '1.0.0');
  }, 120_000);

  afterAll(async () => {
    await proxy?.stop();
    await world?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    proxy.rewrites.clear();
    proxy.missing.clear();
    proxy.asked.length = 0;
  });

  describe('registry verify', () => {
    it('checks the release is in the log, remembers the head, and on the next run checks consistency from it', async () => {
      const first = await cli(['verify', 'alpha@1.0.0', '--registry', world.app.url], { XDG_STATE_HOME: dir });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const logIndex = (await world.release({ slug: 'alpha', version: '1.0.0' })) as unknown as { log_index: number };
      expect(first.stdout).toContain(
        `in transparency log ${origin} as entry ${logIndex.log_index} (release) of tree size 2: inclusion verified`,
      );
      expect(first.stdout).not.toContain('consistent');
      // The default state file lives under $XDG_STATE_HOME.
      const defaultState = join(dir, 'registry', 'log-heads.json');
      expect(remembered(defaultState, world.app.url)).toMatchObject({ size: 2 });

      await world.publish('beta', '1.0.0');
      await world.yank('alpha', '1.0.0');
      const second = await cli(['verify', 'beta@1.0.0', '--registry', world.app.url], { XDG_STATE_HOME: dir });
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('as entry 2 (release) of tree size 4: inclusion verified');
      expect(second.stdout).toContain('tree head of size 4 is consistent with the head of size 2 seen before');
      expect(remembered(defaultState, world.app.url)).toMatchObject({ size: 4 });

      // An older release, checked against the newer head: still included, and the head is not rolled back.
      const third = await cli(['verify', 'alpha@1.0.0', '--registry', world.app.url, '--state', defaultState]);
      expect(third.code).toBe(0);
      expect(third.stdout).toContain('as entry 1 (release) of tree size 4');
      expect(third.stdout).toContain('consistent with the head of size 4 seen before');
    });

    it('exits 3 when the registry shows a different head of a size it showed before (a forked view)', async () => {
      const file = state('fork');
      expect((await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', file])).code).toBe(0);
      const before = remembered(file, proxy.url)!;

      proxy.rewrites.set('/api/log/head', () => forgedHead(before.size, leafHash(Buffer.from('another history'))));
      const forked = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', file]);
      expect(forked.code).toBe(3);
      expect(forked.stderr).toContain('FORKED VIEW');
      expect(forked.stderr).toContain(`is not consistent with the head of size ${before.size}`);
      expect(forked.stdout).toBe('');
      expect(remembered(file, proxy.url)).toEqual(before);
    });

    it('exits 3 when a larger head does not extend the remembered one', async () => {
      const file = state('fork-larger');
      expect((await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', file])).code).toBe(0);
      const before = remembered(file, proxy.url)!;
      await world.publish('gamma', '1.0.0');
      // The registry's real proofs, but a head whose root is not the tree they lead to.
      proxy.rewrites.set('/api/log/head', () => forgedHead(before.size + 1, leafHash(Buffer.from('rewritten'))));
      const forked = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', file]);
      expect(forked.code).toBe(3);
      expect(remembered(file, proxy.url)).toEqual(before);
    });

    it('exits 1 when the logged entry is not the release it verified', async () => {
      proxy.rewrites.set('/api/log/proof/inclusion', (body) => {
        const answer = json(body);
        const other: LogEntry = { type: 'release', slug: 'beta', version: '1.0.0', kid: 'someone-else', jws_sha256: '0'.repeat(64) };
        return asJson({ ...answer, entry: Buffer.from(JSON.stringify(other)).toString('base64') });
      });
      const run = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', state('swapped')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('transparency log: log entry 2 is not the entry computed from the verified release');
    });

    it('exits 1 when the head is not signed by a key of the key set', async () => {
      proxy.rewrites.set('/api/log/head', (body) =>
        Buffer.from(body.toString('utf8').replace(/ [A-Za-z0-9+/]{20}/, ' AAAAAAAAAAAAAAAAAAAA')),
      );
      const run = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', state('unsigned')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("the tree head does not verify with the registry's key set");
    });

    it('warns, and still verifies, a release from before the log (log_index null)', async () => {
      proxy.rewrites.set('/api/plugins/beta/releases/1.0.0', (body) => asJson({ ...json(body), log_index: null }));
      const run = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', state('legacy')]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        "warning: beta@1.0.0 names no transparency log entry (released before the log, or copied by a mirror before mirrors served their upstream's log): inclusion not checked",
      );
      expect(run.stdout).toContain('verified beta@1.0.0');
      expect(existsSync(state('legacy'))).toBe(false);
    });

    it('refuses, with --require-log, a release that names no log entry (exit 1), and still verifies one that does', async () => {
      // A compromised registry could re-sign a release and leave the log out by naming no entry.
      proxy.rewrites.set('/api/plugins/beta/releases/1.0.0', (body) => asJson({ ...json(body), log_index: null }));
      const refused = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', state('required'), '--require-log']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(
        'verification FAILED for beta@1.0.0: transparency log: beta@1.0.0 names no transparency log entry (log_index null), and --require-log refuses a release that is not in the log',
      );
      proxy.rewrites.clear();
      const logged = await cli(['verify', 'beta@1.0.0', '--registry', proxy.url, '--state', state('required'), '--require-log']);
      expect(logged.stderr).toBe('');
      expect(logged.code).toBe(0);
      expect(logged.stdout).toContain('inclusion verified');
    });

    it('documents exit status 3 in its usage text', async () => {
      const run = await cli(['verify', '--help']);
      expect(run.stdout).toContain("3 the log's tree head is not consistent with one verified before (a forked view)");
    });
  });

  describe('registry monitor', () => {
    it('reads every entry, re-verifies each release, and next time reads only what is new', async () => {
      const file = state('monitor');
      const first = await cli(['monitor', world.app.url, '--once', '--state', file]);
      expect(first.stdout).not.toContain('problem');
      expect(first.code).toBe(0);
      const size = remembered(file, world.app.url)!.size;
      expect(first.stdout).toContain(`${origin}: read entries 0..${size - 1} (tree size ${size}), re-verified 3 release(s)`);

      const again = await cli(['monitor', world.app.url, '--once', '--state', file]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`tree size ${size}, no new entries`);

      await world.publish('delta', '1.0.0');
      const next = await cli(['monitor', world.app.url, '--once', '--state', file]);
      expect(next.code).toBe(0);
      expect(next.stdout).toContain(`read entries ${size}..${size} (tree size ${size + 1}), re-verified 1 release(s)`);
    });

    it('reports a tampered entry and exits 1, and finds it again on the next pass', async () => {
      proxy.rewrites.set('/log/tile/entries/', (body) => {
        const entries = decodeEntryBundle(body);
        const index = entries.findIndex((entry) => Buffer.from(entry).toString().includes('"slug":"beta"'));
        const tampered = JSON.parse(Buffer.from(entries[index]!).toString()) as Record<string, string>;
        entries[index] = Buffer.from(JSON.stringify({ ...tampered, jws_sha256: 'f'.repeat(64) }));
        return Buffer.from(encodeEntryBundle(entries));
      });
      const file = state('monitor-tampered');
      for (let pass = 0; pass < 2; pass++) {
        const run = await cli(['monitor', proxy.url, '--once', '--state', file]);
        expect(run.code).toBe(1);
        const problems = run.stdout.split('\n').filter((line) => line.startsWith('problem: '));
        expect(problems).toEqual([
          expect.stringContaining('do not hash to the signed root'),
          'problem: entry 2 (release beta@1.0.0): the served signature is not the one logged (jws_sha256 differs)',
        ]);
      }
    });

    it('reports a release served unyanked although the log says yanked, and a key set the log does not describe', async () => {
      proxy.rewrites.set('/api/plugins/alpha/releases/1.0.0', (body) => asJson({ ...json(body), yanked: false }));
      proxy.rewrites.set('/.well-known/registry-key.json', (body) => {
        const set = json(body) as { keys: unknown[] };
        return asJson({ keys: [...set.keys, keyB.jwk] });
      });
      const run = await cli(['monitor', proxy.url, '--once', '--state', state('monitor-yank')]);
      expect(run.code).toBe(1);
      const problems = run.stdout.split('\n').filter((line) => line.startsWith('problem: '));
      expect(problems).toEqual([
        'problem: entry 3 (yank alpha@1.0.0): the registry serves it not yanked',
        'problem: entry 0 (keys): the key set served is not the one logged (keys_sha256 differs)',
      ]);
    });

    it('reads the entries one by one from /api/log/entries where /log/tile answers 404, says so once, and still finds a tampered entry', async () => {
      proxy.missing.add('/log/tile/');
      const file = state('monitor-no-tiles');
      const run = await cli(['monitor', proxy.url, '--once', '--state', file]);
      expect(run.stdout).not.toContain('problem');
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        `registry monitor: ${proxy.url}/log/tile answers 404 (no entry tiles served): reading entries one by one from /api/log/entries\n`,
      );
      const size = remembered(file, proxy.url)!.size;
      expect(run.stdout).toContain(`${origin}: read entries 0..${size - 1} (tree size ${size}), re-verified`);
      expect(proxy.asked.filter((path) => path.startsWith('/log/tile/'))).toHaveLength(1);
      expect(proxy.asked.filter((path) => path.startsWith('/api/log/entries/'))).toEqual(
        Array.from({ length: size }, (_, index) => `/api/log/entries/${index}`),
      );

      // Entry by entry is checked like a tile: an entry altered (with its leaf hash) no longer hashes to the signed root.
      proxy.rewrites.set('/api/log/entries/2', (body) => {
        const answer = json(body) as { entry: Record<string, string> };
        const entry = { ...answer.entry, jws_sha256: 'f'.repeat(64) };
        return asJson({
          ...answer,
          entry,
          leaf_hash: Buffer.from(leafHash(Buffer.from(JSON.stringify(entry, Object.keys(entry).sort())))).toString('base64'),
        });
      });
      const tampered = await cli(['monitor', proxy.url, '--once', '--state', state('monitor-no-tiles-tampered')]);
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain('do not hash to the signed root');
      // An entry that does not hash to the leaf hash served with it is refused outright.
      proxy.rewrites.set('/api/log/entries/2', (body) => asJson({ ...json(body), leaf_hash: Buffer.alloc(32).toString('base64') }));
      const mismatched = await cli(['monitor', proxy.url, '--once', '--state', state('monitor-no-tiles-leaf')]);
      expect(mismatched.code).toBe(1);
      expect(mismatched.stdout).toContain('problem: log entry 2 does not hash to the leaf hash served with it');
    });

    it('exits 3 on a forked view, and 2 for a usage error', async () => {
      const file = state('monitor-fork');
      expect((await cli(['monitor', proxy.url, '--once', '--state', file])).code).toBe(0);
      const before = remembered(file, proxy.url)!;
      proxy.rewrites.set('/api/log/head', () => forgedHead(before.size, leafHash(Buffer.from('fork'))));
      const run = await cli(['monitor', proxy.url, '--once', '--state', file]);
      expect(run.code).toBe(3);
      expect(run.stdout).toContain('problem: forked view:');
      expect((await cli(['monitor', '--once'])).code).toBe(2);
      expect((await cli(['monitor', 'ftp://x', '--once'])).code).toBe(2);
    });

    it('accepts a copy that names no log entry (log_index null) when it is exactly the logged signature', async () => {
      proxy.rewrites.set('/api/plugins/beta/releases/1.0.0', (body) => asJson({ ...json(body), log_index: null }));
      const run = await cli(['monitor', proxy.url, '--once', '--state', state('monitor-null-index')]);
      expect(run.stdout).not.toContain('problem');
      expect(run.code).toBe(0);
      // Still the logged signature it must be: another one is a problem, log_index or not.
      proxy.rewrites.set('/api/plugins/beta/releases/1.0.0', (body) => {
        const release = json(body) as { integrity: { jws: string } };
        return asJson({
          ...release,
          log_index: null,
          integrity: { ...release.integrity, jws: `${release.integrity.jws.slice(0, -4)}AAAA` },
        });
      });
      const tampered = await cli(['monitor', proxy.url, '--once', '--state', state('monitor-null-index-tampered')]);
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain('problem: entry 2 (release beta@1.0.0): the served release does not verify');
    });

    it('accepts a release the log says was deleted only while the registry no longer serves it', async () => {
      await world.publish('omega', '1.0.0');
      await world.admin('delete', '/api/admin/plugins/omega/releases/1.0.0').expect(204);
      const clean = await cli(['monitor', world.app.url, '--once', '--state', state('monitor-delete')]);
      expect(clean.stdout).not.toContain('problem');
      expect(clean.code).toBe(0);
      // A delete entry for a release still served (a registry hiding nothing, yet logging a removal).
      const index = await world.app.database.dataSource.transaction((manager) =>
        world.app.app.get(TransparencyLog).append({ type: 'delete', slug: 'delta', version: '1.0.0' }, manager),
      );
      const run = await cli(['monitor', world.app.url, '--once', '--state', state('monitor-delete')]);
      expect(run.code).toBe(1);
      expect(run.stdout.split('\n').filter((line) => line.startsWith('problem: '))).toEqual([
        `problem: entry ${index} (delete delta@1.0.0): the registry still serves this release`,
      ]);
    });
  });

  describe('the by-hand checks in docs/verifying-downloads.md', () => {
    it('verify-log.mjs checks the head signature and recomputes the root from the inclusion proof', async () => {
      writeFileSync(join(dir, 'verify-log.mjs'), docScript('verify-log.mjs'));
      const index = ((await world.release({ slug: 'alpha', version: '1.0.0' })) as unknown as { log_index: number }).log_index;
      const good = await run(process.execPath, ['verify-log.mjs', 'alpha', '1.0.0'], { REGISTRY: world.app.url }, dir);
      expect(good.stderr).toBe('');
      expect(good.code).toBe(0);
      expect(good.stdout).toMatch(
        new RegExp(`^alpha@1\\.0\\.0 is entry ${index} of ${origin.replace(/\./g, '\\.')} \\(tree size \\d+, root `),
      );

      proxy.rewrites.set('/api/log/head', () => forgedHead(3, leafHash(Buffer.from('fork'))));
      const forged = await run(process.execPath, ['verify-log.mjs', 'alpha', '1.0.0'], { REGISTRY: proxy.url }, dir);
      expect(forged.code).toBe(1);
      expect(forged.stderr).toContain('log check FAILED: the inclusion proof does not lead to the signed root');

      proxy.rewrites.set('/api/log/head', (body) =>
        Buffer.from(body.toString('utf8').replace(/\n(\d+)\n/, (_, size: string) => `\n${Number(size) - 1}\n`)),
      );
      const altered = await run(process.execPath, ['verify-log.mjs', 'alpha', '1.0.0'], { REGISTRY: proxy.url }, dir);
      expect(altered.code).toBe(1);
      expect(altered.stderr).toContain('log check FAILED: the tree head is not signed by a key of the key set');
    });

    it('check-head.sh verifies the head with curl, jq and openssl, and refuses an altered one', async () => {
      writeFileSync(join(dir, 'check-head.sh'), docScript('check-head.sh'));
      const [kid] = await world.servedKids();
      const good = await run('bash', ['check-head.sh', kid!], { REGISTRY: world.app.url }, dir);
      expect(good.stderr).toBe('');
      expect(good.code).toBe(0);
      expect(good.stdout).toContain(`tree head of ${origin} verified with ${kid}: size `);

      proxy.rewrites.set('/api/log/head', (body) =>
        Buffer.from(body.toString('utf8').replace(/\n(\d+)\n/, (_, size: string) => `\n${Number(size) + 1}\n`)),
      );
      const altered = await run('bash', ['check-head.sh', kid!], { REGISTRY: proxy.url }, dir);
      expect(altered.code).toBe(1);
      expect(altered.stderr).toContain('NOT verified');
    });
  });
});
