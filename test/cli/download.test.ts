/**
 * The single-file CLI the registry serves (GET /cli/registry.js): downloaded from a real server on
 * loopback into an empty folder and run there with plain Node.js, no node_modules within reach.
 * Needs `npm run build` (scripts/build-cli.js writes dist/cli-bundle/registry.js).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { CLI_BUNDLE_FILE, CliDownloadService } from '../../src/publishing/cli-download/cli-download.service';
import { publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the single-file CLI at /cli/registry.js', () => {
  let w: PublishWorld;
  let dir: string;
  let script: Buffer;

  /** Runs the downloaded file from the empty folder, with nothing but PATH in its environment. */
  function cli(env: Record<string, string>, ...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['registry.js', ...args],
        { cwd: dir, env: { PATH: process.env.PATH ?? '', REGISTRY_RETRY_DELAY_MS: '20', ...env } },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
        },
      );
    });
  }

  beforeAll(async () => {
    if (!existsSync(CLI_BUNDLE_FILE)) throw new Error(`${CLI_BUNDLE_FILE} is missing: run \`npm run build\` first`);
    w = await publishWorld();
    dir = mkdtempSync(join(tmpdir(), 'registry-download-'));
    const { jwt } = await userWithSession(w.app, 'download-admin', 'admin');
    await request(w.app.url)
      .post('/api/admin/kinds')
      .set('Authorization', `Bearer ${jwt}`)
      .send({
        key: 'theme',
        label: 'Theme',
        extensionFields: [{ key: 'colors', type: 'string[]', required: true, enum: ['dark', 'light'] }],
      })
      .expect(201);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is served as JavaScript with an ETag, cache headers and its digest, and answers If-None-Match with 304', async () => {
    const response = await request(w.app.url)
      .get('/cli/registry.js')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    script = response.body as Buffer;
    expect(script.subarray(0, 19).toString()).toBe('#!/usr/bin/env node');
    const digest = createHash('sha256').update(script).digest();
    expect(response.headers['repr-digest']).toBe(`sha-256=:${digest.toString('base64')}:`);
    const etag = response.headers.etag as string;
    expect(etag).toBe(`"${digest.toString('hex').slice(0, 32)}"`);
    await request(w.app.url).get('/cli/registry.js').set('If-None-Match', etag).expect(304);

    const checksum = await request(w.app.url).get('/cli/registry.js.sha256').expect(200);
    expect(checksum.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(checksum.text).toBe(`${digest.toString('hex')}  registry.js\n`);
    expect(checksum.headers.etag).not.toBe(etag);
    writeFileSync(join(dir, 'registry.js'), script);
  });

  it('answers a problem 404, without the cache headers, where no CLI was built', async () => {
    const service = w.app.app.get(CliDownloadService) as unknown as { file: string };
    const built = service.file;
    service.file = join(dir, 'absent.js');
    try {
      const missing = await request(w.app.url).get('/cli/registry.js').expect(404);
      expect(missing.headers['content-type']).toContain('application/problem+json');
      expect(missing.headers['cache-control'] ?? '').not.toContain('public');
      expect(missing.body.detail).toContain('npm run build');
    } finally {
      service.file = built;
    }
  });

  it('runs from an empty folder with plain Node.js', async () => {
    expect(readdirSync(dir)).toEqual(['registry.js']);
    const help = await cli({}, '--help');
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/^ {2}validate {3}/m);
    expect(help.stderr).toMatch(/^ {2}publish {4}/m);
    expect(help.stderr).toMatch(/^ {2}verify {5}/m);
    const operator = await cli({}, 'users', 'create', 'x');
    expect(operator.code).toBe(2);
    expect(operator.stderr).toContain('an operator command, not in the single-file CLI');
  });

  it("validates against the registry's kinds, and publishes a manifest with extension fields", async () => {
    writeFileSync(join(dir, '.plugin.yaml'), 'name: bundled\nversion: "1.0.0"\nkind: theme\ncolors: [purple]\n');
    const refused = await cli({ REGISTRY_URL: w.app.url }, 'validate');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('  /colors/0: must be one of "dark", "light"');
    const offline = await cli({ REGISTRY_URL: w.app.url }, 'validate', '--offline');
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('warning: /colors: is not a field of the manifest format');

    writeFileSync(join(dir, '.plugin.yaml'), 'name: bundled\nversion: "1.0.0"\nkind: theme\ncolors: [dark]\n');
    const { token } = await w.tokenFor('bundled-author', ['publish:*']);
    const url = w.forge.asset('/acme/bundled/1.0.0/bundled.zip', { size: 128 });
    const published = await cli(
      { REGISTRY_URL: w.app.url, REGISTRY_TOKEN: token },
      'publish',
      '--asset',
      `bundled.zip=${url}`,
      '--repo-url',
      `${w.forge.url}/acme/bundled`,
    );
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toMatch(/^published bundled@1\.0\.0 \(claimed the new plugin name\)\n {2}signed bundled\.zip/);
    const verified = await cli({ REGISTRY_URL: w.app.url, XDG_STATE_HOME: dir }, 'verify', 'bundled@1.0.0');
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('inclusion verified');
  });
});
