/**
 * `registry validate` end to end: the built binary, run as a child process in a scratch folder
 * holding copies of the fixtures.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import request from 'supertest';
import { canonicalJson } from '../../src/lib/integrity/canonical-json';
import { freePort } from '../support/free-port';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const FIXTURES = join(__dirname, 'fixtures', 'validate');
const SOURCES = [
  join(REPO_ROOT, 'src', 'lib', 'manifest'),
  join(REPO_ROOT, 'src', 'cli'),
  join(REPO_ROOT, 'src', 'lib', 'integrity', 'canonical-json.ts'),
];

/** Folders tsconfig.build.json leaves out of dist/ (test helpers beside the code). */
const NOT_BUILT = new Set(['testing', 'testdata']);

function typeScriptFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => {
    const child = join(path, name);
    if (statSync(child).isDirectory()) return NOT_BUILT.has(name) ? [] : typeScriptFiles(child);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [child] : [];
  });
}

/** Sources whose compiled file in dist/ is missing or older than they are. */
function staleSources(): string[] {
  return SOURCES.flatMap(typeScriptFiles).filter((source) => {
    const output = join(REPO_ROOT, 'dist', relative(join(REPO_ROOT, 'src'), source)).replace(/\.ts$/, '.js');
    return !existsSync(output) || statSync(output).mtimeMs < statSync(source).mtimeMs;
  });
}

function ensureBuilt(): void {
  if (staleSources().length === 0) return;
  // Type errors from other in-progress files are tolerated: tsc still emits JavaScript. Not
  // incremental, because an incremental build skips rewriting outputs whose source was touched but
  // not changed, which would leave them looking stale and rebuild on every run.
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--incremental', 'false'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const command = join(REPO_ROOT, 'dist', 'cli', 'commands', 'validate.js');
  if (!existsSync(command)) throw new Error(`build did not emit ${command}:\n${build.stdout}${build.stderr}`);
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let scratch: string;

function registry(...args: string[]): Run {
  const result = spawnSync(process.execPath, [BIN, 'validate', ...args], {
    cwd: scratch,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(ensureBuilt, 180_000);

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'registry-validate-'));
  cpSync(FIXTURES, scratch, { recursive: true });
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const KINDS_NOTE = 'note: kinds were not checked';

describe('registry validate', () => {
  it('passes a valid manifest found in a folder, printing its hash', () => {
    const run = registry('valid');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^valid\/\.plugin\.yaml \(repository-root name\): valid \(hello-world 1\.2\.3\)\n {2}manifest_sha256: [0-9a-f]{64}\n/,
    );
    expect(run.stdout).toContain(KINDS_NOTE);
    expect(run.stderr).toBe('');
  });

  it('looks in the current folder by default, and accepts a file path', () => {
    const inFolder = spawnSync(process.execPath, [BIN, 'validate'], {
      cwd: join(scratch, 'valid'),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(inFolder.status).toBe(0);
    expect(inFolder.stdout).toMatch(/^\.plugin\.yaml \(repository-root name\): valid/);
    const byFile = registry('valid/.plugin.yaml');
    expect(byFile.status).toBe(0);
  });

  it('lists every violation with its field and exits 1; offline, a field outside the format is a warning', () => {
    const run = registry('invalid');
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n')).toEqual([
      'invalid/.plugin.yaml (repository-root name): 5 violations',
      '  /name: must be lowercase letters, digits and hyphens, starting with a letter (pattern ^[a-z][a-z0-9-]*$)',
      '  /version: must be a string; quote it (it was read as the number 1.1)',
      '  /tags/3: must be at most 30 characters (got 35)',
      '  /screenshots/0/url: is required',
      '  /homepage: must be an http:// or https:// URL (pattern ^https?://.+)',
      'warning: /descripton: is not a field of the manifest format; not checked: it must be an extension field the registry declares; did you mean "description"?',
      expect.stringContaining(KINDS_NOTE),
      '',
    ]);
  });

  it('refuses a kind the registry does not have when given --kinds', () => {
    const run = registry('unknown-kind', '--kinds', 'kinds.json');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('  /kind: must be one of "theme", "widget"; did you mean "theme"?\n');
    expect(run.stdout).not.toContain(KINDS_NOTE);
  });

  it('accepts any well-formed kind without --kinds, saying kinds were not checked', () => {
    const run = registry('unknown-kind');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(KINDS_NOTE);
  });

  it('accepts a known kind with --kinds=FILE', () => {
    const run = registry('valid', '--kinds=kinds.json');
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('note:');
  });

  it('refuses duplicate keys', () => {
    const run = registry('duplicate-key');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      'duplicate-key/.plugin.json (repository-root and release-asset name): 1 violation\n  /description: duplicate key (first defined at line 4)\n',
    );
  });

  it('checks the version against --tag', () => {
    const mismatch = registry('valid', '--tag', 'v1.2.4');
    expect(mismatch.status).toBe(1);
    expect(mismatch.stdout).toContain(
      '  /version: must equal the release tag without its leading v: expected "1.2.4" (tag "v1.2.4"), got "1.2.3"\n',
    );
    expect(registry('valid', '--tag', 'v1.2.3').status).toBe(0);
    expect(registry('valid', '--tag', '1.2.3').status).toBe(0);
  });

  it('prints {valid, violations, notes, manifest_sha256} with --json', () => {
    const valid = registry('valid', '--json');
    expect(valid.status).toBe(0);
    const report = JSON.parse(valid.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual([
      'file',
      'fileKind',
      'kinds',
      'manifest_sha256',
      'notes',
      'valid',
      'violations',
      'warnings',
    ]);
    const manifest: unknown = parseYaml(readFileSync(join(scratch, 'valid', '.plugin.yaml'), 'utf8'));
    const expectedHash = createHash('sha256').update(canonicalJson(manifest)).digest('hex');
    expect(report).toEqual({
      file: 'valid/.plugin.yaml',
      fileKind: 'repository-root name',
      valid: true,
      violations: [],
      warnings: [],
      notes: [expect.stringContaining('kinds were not checked')],
      kinds: { source: 'none' },
      manifest_sha256: expectedHash,
    });

    const invalid = registry('invalid', '--json');
    expect(invalid.status).toBe(1);
    type Item = { path: string; message: string };
    const failure = JSON.parse(invalid.stdout) as { valid: boolean; violations: Item[]; warnings: Item[]; manifest_sha256: unknown };
    expect(failure.valid).toBe(false);
    expect(failure.manifest_sha256).toBeNull();
    expect(failure.violations.map((item) => item.path)).toEqual(['/name', '/version', '/tags/3', '/screenshots/0/url', '/homepage']);
    expect(failure.violations[2]).toEqual({ path: '/tags/3', message: 'tags/3: must be at most 30 characters (got 35)' });
    expect(failure.warnings.map((item) => item.path)).toEqual(['/descripton']);
  });

  it('picks .plugin.yaml over .plugin.json and says so', () => {
    const run = registry('two-manifests');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('two-manifests/.plugin.yaml (repository-root name): valid (from-yaml 1.0.0)');
    expect(run.stdout).toContain('note: also found .plugin.json; checked .plugin.yaml');
  });

  it('exits 2 when no manifest is found', () => {
    const run = registry('empty');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no manifest found in');
    expect(run.stderr).toContain('.plugin.yaml, .plugin.yml, .plugin.json, .plugin');
  });

  it.each([
    [['missing-folder'], 'path not found'],
    [['valid', '--verbose'], "unknown option '--verbose'"],
    [['valid', '--tag'], '--tag needs a value'],
    [['valid', 'invalid'], 'only one path may be given'],
    [['valid', '--kinds', 'no-such-kinds.json'], 'cannot read kinds file'],
    [['valid', '--kinds', 'valid/.plugin.yaml'], 'is not valid JSON'],
    [['valid', '--kinds', 'kinds.json', '--registry', 'http://127.0.0.1:1'], '--registry and --kinds cannot be given together'],
    [['valid', '--offline', '--registry', 'http://127.0.0.1:1'], '--registry and --offline cannot be given together'],
    [['valid', '--registry', 'ftp://registry.example'], "registry 'ftp://registry.example' is not an http(s) URL"],
  ])('exits 2 for the usage error in %j', (args, message) => {
    const run = registry(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('finds a release-asset name (plugin.yaml) in a folder and says which kind of name it read', () => {
    mkdirSync(join(scratch, 'asset-named'), { recursive: true });
    writeFileSync(join(scratch, 'asset-named', 'plugin.yaml'), 'name: asset-named\nversion: "1.0.0"\n');
    const run = registry('asset-named');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^asset-named\/plugin\.yaml \(release-asset name\): valid \(asset-named 1\.0\.0\)/);
  });

  it('explains itself with --help', () => {
    const run = registry('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('usage: registry validate [path] [--registry URL | --kinds FILE | --offline] [--tag vX.Y.Z] [--json]');
    expect(run.stdout).toContain('names .plugin.yaml, .plugin.yml, .plugin.json, .plugin, then the release-asset names');
  });
});

describe("registry validate against a registry's kinds (a real server on loopback)", () => {
  let app: TestApp;

  /** Asynchronous: the registry answering the CLI runs in this very process. */
  function validate(env: Record<string, string>, ...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'validate', ...args],
        { cwd: scratch, env: { PATH: process.env.PATH ?? '', ...env } },
        (error, stdout, stderr) => {
          resolve({ status: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
        },
      );
    });
  }

  const themed = (extra: string) => {
    mkdirSync(join(scratch, 'themed'), { recursive: true });
    writeFileSync(join(scratch, 'themed', '.plugin.yaml'), `name: themed\nversion: "1.0.0"\nkind: theme\n${extra}`);
  };

  beforeAll(async () => {
    app = await startTestApp();
    const { jwt } = await userWithSession(app, 'validate-admin', 'admin');
    const admin = `Bearer ${jwt}`;
    await request(app.url)
      .post('/api/admin/kinds')
      .set('Authorization', admin)
      .send({
        key: 'theme',
        label: 'Theme',
        extensionFields: [{ key: 'colors', type: 'string[]', required: true, enum: ['dark', 'light'] }],
      })
      .expect(201);
    await request(app.url)
      .put('/api/admin/extension-fields')
      .set('Authorization', admin)
      .send({ fields: [{ key: 'audience', type: 'string', maxLength: 5 }] })
      .expect(200);
  }, 120_000);
  afterAll(() => app?.close());

  it('accepts extension fields the registry declares (--registry)', async () => {
    themed('colors: [dark]\naudience: devs\n');
    const run = await validate({}, 'themed', '--registry', `${app.url}/`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('themed/.plugin.yaml (repository-root name): valid (themed 1.0.0)');
    expect(run.stdout).toContain(`note: checked against the kinds and extension fields of ${app.url}\n`);
    expect(run.stdout).not.toContain('warning');
    expect(run.stdout).not.toContain(KINDS_NOTE);
  });

  it('reports extension-field violations, reading the registry from REGISTRY_URL', async () => {
    themed('audience: developers\nundeclared: 1\n');
    const run = await validate({ REGISTRY_URL: app.url }, 'themed', '--json');
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { violations: unknown[]; warnings: unknown[]; kinds: unknown };
    expect(report.kinds).toEqual({ source: 'registry', registry: app.url });
    expect(report.warnings).toEqual([]);
    expect(report.violations).toEqual([
      { path: '/audience', message: 'audience: must be at most 5 characters (got 10)' },
      { path: '/undeclared', message: 'undeclared: is not a known field' },
      { path: '/colors', message: 'colors: is required for kind "theme"' },
    ]);
  });

  it('refuses a kind the registry does not have', async () => {
    writeFileSync(join(scratch, 'other.yaml'), 'name: other\nversion: "1.0.0"\nkind: themes\n');
    const run = await validate({ REGISTRY_URL: app.url }, 'other.yaml');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('  /kind: must be one of "theme"; did you mean "theme"?\n');
  });

  it('offline (the registry unreachable, or --offline): extension fields are warnings, exit 0', async () => {
    themed('colors: [purple]\n');
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await validate({ REGISTRY_URL: nowhere }, 'themed');
    expect(unreachable.status).toBe(0);
    expect(unreachable.stdout).toContain(`warning: could not read the kinds of ${nowhere} (ECONNREFUSED); checked without them\n`);
    expect(unreachable.stdout).toContain(
      'warning: /colors: is not a field of the manifest format; not checked: it must be an extension field the registry declares\n',
    );
    expect(unreachable.stdout).toContain(KINDS_NOTE);

    const offline = await validate({ REGISTRY_URL: app.url }, 'themed', '--offline');
    expect(offline.status).toBe(0);
    expect(offline.stdout).toContain('warning: /colors: is not a field of the manifest format');
    expect(offline.stdout).not.toContain('could not read');
    // The same manifest, checked against the registry: purple is not one of its colours.
    expect((await validate({ REGISTRY_URL: app.url }, 'themed')).status).toBe(1);
  });

  it('warns, and checks offline, when the address answers but is not a registry', async () => {
    themed('colors: [dark]\n');
    const run = await validate({}, 'themed', '--registry', `${app.url}/no-such-prefix`);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `warning: could not read the kinds of ${app.url}/no-such-prefix (it answered HTTP 404); checked without them\n`,
    );
  });
});
