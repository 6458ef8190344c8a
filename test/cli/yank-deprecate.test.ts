/**
 * `registry yank`, `unyank` and `deprecate`, run from the single-file CLI the registry serves
 * (dist/cli-bundle/registry.js, copied into an empty folder) against a real registry started by
 * the test. Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { CLI_BUNDLE_FILE } from '../../src/publishing/cli-download/cli-download.service';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('registry yank, unyank and deprecate', () => {
  let w: PublishWorld;
  let dir: string;
  let owner: { token: string; jwt: string };
  let publishOnly: string;
  let stranger: { jwt: string };

  /** The served file, from an empty folder, with nothing but PATH and `env` in its environment. */
  function cli(env: Record<string, string>, ...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['registry.js', ...args],
        { cwd: dir, env: { PATH: process.env.PATH ?? '', REGISTRY_RETRY_DELAY_MS: '10', ...env } },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
        },
      );
    });
  }
  const release = async (slug: string, version: string) =>
    (await request(w.app.url).get(`/api/plugins/${slug}/releases/${version}`).expect(200)).body;
  const deprecated = async (slug: string) => (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body.deprecated;
  const audits = async () =>
    Number(
      (
        await w.app.database.dataSource.query(
          `SELECT count(*)::int AS n FROM audit_entry WHERE action IN ('plugin.yank', 'plugin.unyank', 'plugin.deprecate', 'plugin.undeprecate')`,
        )
      )[0].n,
    );
  const body = (slug: string, version: string) => ({
    manifest: manifestYaml({ name: slug, version, description: `The ${slug} tool` }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 300, seed: version.length }) }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });

  beforeAll(async () => {
    if (!existsSync(CLI_BUNDLE_FILE)) throw new Error(`${CLI_BUNDLE_FILE} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'registry-yank-'));
    copyFileSync(CLI_BUNDLE_FILE, join(dir, 'registry.js'));
    w = await publishWorld();
    owner = await w.tokenFor('yank-owner', ['publish:*', 'yank:*']);
    publishOnly = (
      await request(w.app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${owner.jwt}`)
        .send({ name: 'no-yank', scopes: ['publish:*'] })
        .expect(201)
    ).body.token;
    stranger = await userWithSession(w.app, 'yank-stranger');
    for (const version of ['1.0.0', '1.1.0']) await w.push(owner.token, 'yank-tool', body('yank-tool', version)).expect(201);
    await w.push(owner.token, 'next-tool', body('next-tool', '1.0.0')).expect(201);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the commands, and each has --help with its exit codes', async () => {
    const listing = await cli({}, '--help');
    expect(listing.code).toBe(0);
    for (const name of ['yank', 'unyank', 'deprecate']) expect(listing.stderr).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    for (const name of ['yank', 'unyank', 'deprecate']) {
      const help = await cli({}, name, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: registry ${name} <slug>`));
      expect(help.stdout).toContain('Exit status: 0 done');
      expect(help.stdout).toContain('3 the registry could not be reached');
    }
  });

  it('yanks a release with a reason, so latest passes over it, and unyanks it', async () => {
    const env = { REGISTRY_URL: w.app.url, REGISTRY_TOKEN: owner.token };
    const yanked = await cli(env, 'yank', 'yank-tool', '1.1.0', '--reason', 'broken on arm64');
    expect(yanked).toEqual({ code: 0, stdout: 'yanked yank-tool@1.1.0\n', stderr: '' });
    expect(await release('yank-tool', '1.1.0')).toMatchObject({ yanked: true, yankReason: 'broken on arm64' });
    expect((await request(w.app.url).get('/api/plugins/yank-tool/releases/latest').expect(200)).body.version).toBe('1.0.0');

    const restored = await cli(env, 'unyank', 'yank-tool', 'v1.1.0', '--json');
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toEqual({ slug: 'yank-tool', version: '1.1.0', yanked: false });
    expect(await release('yank-tool', '1.1.0')).toMatchObject({ yanked: false, yankReason: null });
    expect((await request(w.app.url).get('/api/plugins/yank-tool/releases/latest').expect(200)).body.version).toBe('1.1.0');
  });

  it('exits 1 with the refusal explained, writing nothing, for a token without yank scope or an unknown release', async () => {
    const before = await audits();
    const denied = await cli({ REGISTRY_URL: w.app.url, REGISTRY_TOKEN: publishOnly }, 'yank', 'yank-tool', '1.0.0');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('registry yank: refused (HTTP 403)');
    expect(denied.stderr).toContain('yank:<slug>');
    expect(denied.stderr).not.toContain(publishOnly);
    const missing = await cli({ REGISTRY_URL: w.app.url, REGISTRY_TOKEN: owner.token }, 'yank', 'yank-tool', '9.9.9');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('refused (HTTP 404)');
    expect((await release('yank-tool', '1.0.0')).yanked).toBeFalsy();
    expect(await audits()).toBe(before);
  });

  it('exits 2 for usage errors without sending anything, and 3 when the registry cannot be reached', async () => {
    const before = await audits();
    const env = { REGISTRY_URL: w.app.url, REGISTRY_TOKEN: owner.token };
    for (const args of [
      ['yank', 'yank-tool'],
      ['unyank', 'yank-tool', '1.0.0', '--reason', 'x'],
      ['yank', 'yank-tool', '1.0.0', '--token', 'prt_x'],
      ['yank', 'yank-tool', '1.0.0', '--reason', 'x'.repeat(501)],
    ]) {
      const run = await cli(env, ...args);
      expect([args, run.code]).toEqual([args, 2]);
      expect(run.stderr).toContain(`run 'registry ${args[0]} --help' for usage`);
    }
    const noToken = await cli({ REGISTRY_URL: w.app.url }, 'yank', 'yank-tool', '1.0.0');
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('REGISTRY_TOKEN');
    const cleartext = await cli({ REGISTRY_URL: 'http://plugins.example.org', REGISTRY_TOKEN: owner.token }, 'yank', 'yank-tool', '1.0.0');
    expect(cleartext.code).toBe(2);
    expect(await audits()).toBe(before);

    const unreachable = await cli(
      { REGISTRY_URL: `http://127.0.0.1:${await closedPort()}`, REGISTRY_TOKEN: owner.token },
      'unyank',
      'yank-tool',
      '1.0.0',
    );
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('failed after 4 attempts');
  });

  it('deprecates a plugin with a message and a replacement with a session, and --undo removes it', async () => {
    const env = { REGISTRY_URL: w.app.url, REGISTRY_SESSION: owner.jwt };
    const done = await cli(env, 'deprecate', 'yank-tool', '--message', 'Unmaintained; use next-tool', '--replacement', 'next-tool');
    expect(done).toEqual({ code: 0, stdout: 'deprecated yank-tool: Unmaintained; use next-tool (use next-tool instead)\n', stderr: '' });
    expect(await deprecated('yank-tool')).toMatchObject({ message: 'Unmaintained; use next-tool', replacement: 'next-tool' });

    const undone = await cli(env, 'deprecate', 'yank-tool', '--undo', '--json');
    expect(undone.code).toBe(0);
    expect(JSON.parse(undone.stdout)).toEqual({ slug: 'yank-tool', deprecated: null });
    expect(await deprecated('yank-tool')).toBeNull();
  });

  it('refuses deprecation without a session, by a publisher token or by someone else, writing nothing', async () => {
    const before = await audits();
    const withToken = await cli({ REGISTRY_URL: w.app.url, REGISTRY_TOKEN: owner.token }, 'deprecate', 'yank-tool', '--message', 'x');
    expect(withToken.code).toBe(2);
    expect(withToken.stderr).toContain('REGISTRY_SESSION');
    const tokenAsSession = await cli(
      { REGISTRY_URL: w.app.url, REGISTRY_SESSION: owner.token },
      'deprecate',
      'yank-tool',
      '--message',
      'x',
    );
    expect(tokenAsSession.code).toBe(1);
    expect(tokenAsSession.stderr).toContain('refused (HTTP 401)');
    const foreign = await cli({ REGISTRY_URL: w.app.url, REGISTRY_SESSION: stranger.jwt }, 'deprecate', 'yank-tool', '--message', 'x');
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('refused (HTTP 403)');
    const badReplacement = await cli(
      { REGISTRY_URL: w.app.url, REGISTRY_SESSION: owner.jwt },
      'deprecate',
      'yank-tool',
      '--message',
      'x',
      '--replacement',
      'no-such-tool',
    );
    expect(badReplacement.code).toBe(1);
    expect(badReplacement.stderr).toContain('refused (HTTP 422)');
    for (const args of [
      ['deprecate', 'yank-tool'],
      ['deprecate', 'yank-tool', '--undo', '--message', 'x'],
      ['deprecate', '--message', 'x'],
    ]) {
      expect((await cli({ REGISTRY_URL: w.app.url, REGISTRY_SESSION: owner.jwt }, ...args)).code).toBe(2);
    }
    expect(await deprecated('yank-tool')).toBeNull();
    expect(await audits()).toBe(before);
  });
});
