/**
 * `registry keys list|rotate`: the built binary, run as a child process against a test database,
 * while the server runs (joining it) and while it is stopped (owning the embedded files itself).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/database-handle';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { canonicalJson, sha256Hex, verifyRelease } from '../../src/lib/integrity';
import { RotationWorld, startRegistry } from '../support/rotation-world';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { ensureBuilt } from '../support/built-dist';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const KEY_SET_PATH = '/.well-known/registry-key.json';
const KID = /^[A-Za-z0-9_-]{43}$/;
const LIST_LINE =
  /^([A-Za-z0-9_-]{43}) {2}(current|previous|draining|retired) * {2}(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)(?: {2}pending (\d+)(?: {2}failed (\d+))?)?$/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runNode(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
    });
  });
}

/** `registry keys list` output, one object per line. */
function listed(run: Run) {
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const match = LIST_LINE.exec(line);
      if (!match) throw new Error(`unexpected list line: ${JSON.stringify(line)}`);
      return { kid: match[1], state: match[2], createdAt: match[3], ...(match[4] === undefined ? {} : { pending: Number(match[4]) }) };
    });
}

describe('registry keys', () => {
  const kekHex = randomBytes(32).toString('hex');
  let db: TestDatabase;
  let cwd: string;
  let env: Record<string, string>;
  let app: TestApp | null = null;

  const cli = (...args: string[]) => runNode([BIN, 'keys', ...args], env, cwd);
  const servedKids = async (server: TestApp) =>
    (await request(server.url).get(KEY_SET_PATH).expect(200)).body.keys.map((key: { kid: string }) => key.kid) as string[];
  beforeAll(async () => {
    ensureBuilt(['dist/cli/commands/keys.js']);
    db = await createTestDatabase();
    cwd = mkdtempSync(join(tmpdir(), 'registry-keys-cwd-'));
    // The server and the CLI must share the key-encryption key, as in production.
    env = { ...db.env, KEY_ENCRYPTION_KEY: kekHex, SESSION_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' };
    app = await startTestApp({ KEY_ENCRYPTION_KEY: kekHex }, db);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('answers usage errors with exit 2 and --help with exit 0', async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: registry keys <list|rotate|resign>');
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown subcommand 'frobnicate'");
    const extra = await cli('list', '--all');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("unexpected argument '--all'");
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: registry keys');
    const overview = await runNode([BIN, '--help'], env, cwd);
    expect(overview.stderr).toMatch(/ keys +list, rotate or re-sign the release-signing keys/);
  });

  it('lists and rotates while the server runs, and the server serves the new key set', async () => {
    const [firstKid] = await servedKids(app!);
    const list = await cli('list');
    expect(list).toMatchObject({ code: 0, stderr: '' });
    const keys = listed(list);
    expect(keys).toEqual([{ kid: firstKid, state: 'current', createdAt: expect.any(String) }]);
    expect(Math.abs(Date.parse(keys[0]!.createdAt) - Date.now())).toBeLessThan(10 * 60_000);

    const rotate = await cli('rotate');
    expect(rotate.code).toBe(0);
    const newKid = rotate.stdout.trim();
    expect(newKid).toMatch(KID);
    expect(rotate.stdout).toBe(`${newKid}\n`);
    expect(await servedKids(app!)).toEqual([newKid, firstKid]);
    expect(listed(await cli('list')).map((key) => [key.kid, key.state])).toEqual([
      [newKid, 'current'],
      [firstKid, 'previous'],
    ]);

    const audit = await app!.database.dataSource.query("SELECT actor_user_id, details FROM audit_entry WHERE action = 'key.rotate'");
    expect(audit).toEqual([
      {
        actor_user_id: null,
        details: { newKid, previousKid: firstKid, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [], via: 'cli' },
      },
    ]);
    // The CLI's rotation is in the transparency log, as the admin route's is: the key set as now served.
    const keySet = (await request(app!.url).get('/.well-known/registry-key.json').expect(200)).body;
    const [last] = (await app!.database.dataSource.query(
      'SELECT convert_from("entry", \'UTF8\') AS "entry" FROM "transparency_leaf" ORDER BY "index" DESC LIMIT 1',
    )) as { entry: string }[];
    expect(JSON.parse(last!.entry)).toEqual({ type: 'keys', keys_sha256: sha256Hex(canonicalJson(keySet)) });
    // The running server signs with the key the CLI made current.
    const { IntegrityService } = await import('../../src/trust/integrity/integrity.service');
    const { PINNED_PAYLOAD } = await import('../../src/lib/integrity/testdata/signing-fixtures');
    expect((await app!.app.get(IntegrityService).signRelease(PINNED_PAYLOAD)).kid).toBe(newKid);
  });

  it('rotates while the server is stopped, and the restarted server serves that key set', async () => {
    const before = listed(await cli('list'));
    await app!.close();
    app = null;

    const rotate = await cli('rotate');
    expect(rotate.code).toBe(0);
    const newKid = rotate.stdout.trim();
    expect(newKid).toMatch(KID);
    const after = listed(await cli('list'));
    expect(after.map((key) => [key.kid, key.state])).toEqual([
      [newKid, 'current'],
      [before[0]!.kid, 'previous'],
      [before[1]!.kid, 'retired'],
    ]);

    app = await startTestApp({ KEY_ENCRYPTION_KEY: kekHex }, db);
    expect(await servedKids(app)).toEqual([newKid, before[0]!.kid]);
  });

  it('loads neither Nest nor the server to do its work', async () => {
    const script = `
      const { main } = require(${JSON.stringify(join(REPO_ROOT, 'dist', 'cli', 'main.js'))});
      const io = { stdout: () => {}, stderr: (t) => process.stderr.write(t), cwd: process.cwd(), env: process.env, fetch };
      main(['keys', 'list'], io).then((code) => {
        const nest = Object.keys(require.cache).filter((path) => path.includes('@nestjs'));
        process.stdout.write(JSON.stringify({ code, nest: nest.length }));
      });`;
    const run = await runNode(['-e', script], env, cwd);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ code: 0, nest: 0 });
  });
});

describe('registry keys with releases to re-sign', () => {
  let world: RotationWorld;
  let cwd: string;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runNode([BIN, 'keys', ...args], env, cwd);
  const states = (run: Run) => listed(run).map((key) => [key.kid, key.state, key.pending]);

  beforeAll(async () => {
    ensureBuilt(['dist/cli/commands/keys.js']);
    world = await RotationWorld.open({ intervalMs: 3_600_000 });
    // Only the CLI re-signs in this test.
    await world.app.app.get(ReleaseResignWorker).stop();
    cwd = mkdtempSync(join(tmpdir(), 'registry-keys-resign-cwd-'));
    env = {
      ...world.db.env,
      KEY_ENCRYPTION_KEY: world.env.KEY_ENCRYPTION_KEY!,
      SESSION_SECRET: world.env.SESSION_SECRET!,
      LOG_LEVEL: 'silent',
    };
  }, 180_000);
  afterAll(async () => {
    await world?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('reports the pending count, rotates again during a drain without waiting, and finishes the drain inline while the server is stopped', async () => {
    for (const version of ['1.0.0', '1.1.0', '1.2.0', '2.0.0']) await world.publish('cli-resigned', version);
    const [k1] = await world.servedKids();

    const first = await cli('rotate');
    expect(first.code).toBe(0);
    const k2 = first.stdout.trim();
    const second = await cli('rotate');
    expect(second.code).toBe(0);
    const k3 = second.stdout.trim();
    expect(second.stderr).toBe(
      `rotated: ${k3} is current, ${k2} is previous, ${k1} drains (4 release(s) to re-sign)\n` +
        "a running server re-signs them in the background; with no server running, run 'registry keys resign'\n",
    );
    expect(states(await cli('list'))).toEqual([
      [k3, 'current', undefined],
      [k2, 'previous', undefined],
      [k1, 'draining', 4],
    ]);
    expect(await world.servedKids()).toEqual([k3, k2, k1]);

    // An emergency rotation does not wait for K1's drain: K1 keeps draining (and stays served).
    const third = await cli('rotate');
    expect(third.code).toBe(0);
    const k4 = third.stdout.trim();
    expect(third.stderr).toBe(
      `rotated: ${k4} is current, ${k3} is previous, ${k2} retired, ${k1} still drains (4 release(s) to re-sign)\n` +
        "a running server re-signs them in the background; with no server running, run 'registry keys resign'\n",
    );
    expect(states(await cli('list'))).toEqual([
      [k4, 'current', undefined],
      [k3, 'previous', undefined],
      [k1, 'draining', 4],
      [k2, 'retired', undefined],
    ]);
    expect(await world.servedKids()).toEqual([k4, k3, k1]);

    // The server stops; the operator finishes the drain from the shell.
    await world.app.close();
    const resign = await cli('resign');
    expect(resign).toMatchObject({ code: 0, stdout: 're-signed 4 release(s) with the current key\n' });
    expect(resign.stderr).toMatch(new RegExp(`^${k1} has no release left to re-sign; it stays in the key set until \\d{4}-`));
    expect(states(await cli('list'))).toEqual([
      [k4, 'current', undefined],
      [k3, 'previous', undefined],
      [k1, 'draining', 0],
      [k2, 'retired', undefined],
    ]);

    // Once its grace period is over (moved into the past here), the next resign retires K1.
    const stopped = await openDatabase(loadConfig({ NODE_ENV: 'test', ...world.env, ...world.db.env }), {
      embeddedMode: 'own-or-join',
      migrate: false,
    });
    try {
      await stopped.dataSource.query("UPDATE signing_key SET drained_at = now() - interval '1 hour' WHERE kid = $1", [k1]);
    } finally {
      await stopped.close();
    }
    const retire = await cli('resign');
    expect(retire).toMatchObject({
      code: 0,
      stdout: 're-signed 0 release(s) with the current key\n',
      stderr: `${k1} has no release left to re-sign and left the key set\n`,
    });

    world.app = await startRegistry(world.db, world.env, { intervalMs: 3_600_000 });
    expect(await world.servedKids()).toEqual([k4, k3]);
    for (const published of world.published) {
      await expect(
        verifyRelease({ release: await world.release(published), keys: await world.keySet(), expected: published }),
      ).resolves.toMatchObject({ ok: true, kid: k4 });
    }
    const audit = await world.app.database.dataSource.query("SELECT actor_user_id, details FROM audit_entry WHERE action = 'key.resign'");
    expect(audit).toEqual([
      { actor_user_id: null, details: { kid: k1, resignedWith: k4, resigned: 4, failed: 0, failures: [], via: 'cli' } },
    ]);
    const rotations = await world.app.database.dataSource.query(
      "SELECT details FROM audit_entry WHERE action = 'key.rotate' ORDER BY created_at",
    );
    expect(rotations.map((row: { details: unknown }) => row.details)).toEqual([
      { newKid: k2, previousKid: k1, drainingKid: null, retiredKids: [], pending: 0, stillDraining: [], via: 'cli' },
      { newKid: k3, previousKid: k2, drainingKid: k1, retiredKids: [], pending: 4, stillDraining: [], via: 'cli' },
      {
        newKid: k4,
        previousKid: k3,
        drainingKid: null,
        retiredKids: [k2],
        pending: 0,
        stillDraining: [{ kid: k1, pending: 4 }],
        via: 'cli',
      },
    ]);
  });
});
