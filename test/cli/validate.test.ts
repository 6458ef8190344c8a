/**
 * `registry validate` end to end: the built binary, run as a child process in a scratch folder
 * holding copies of the fixtures.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { canonicalJson } from '../../src/lib/integrity/canonical-json';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const FIXTURES = join(__dirname, 'fixtures', 'validate');
const SOURCES = [join(REPO_ROOT, 'src', 'lib', 'manifest'), join(REPO_ROOT, 'src', 'cli'), join(REPO_ROOT, 'src', 'lib', 'integrity', 'canonical-json.ts')];

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
  const result = spawnSync(process.execPath, [BIN, 'validate', ...args], { cwd: scratch, encoding: 'utf8' });
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
    expect(run.stdout).toMatch(/^valid\/\.plugin\.yaml \(repository-root name\): valid \(hello-world 1\.2\.3\)\n {2}manifest_sha256: [0-9a-f]{64}\n/);
    expect(run.stdout).toContain(KINDS_NOTE);
    expect(run.stderr).toBe('');
  });

  it('looks in the current folder by default, and accepts a file path', () => {
    const inFolder = spawnSync(process.execPath, [BIN, 'validate'], { cwd: join(scratch, 'valid'), encoding: 'utf8' });
    expect(inFolder.status).toBe(0);
    expect(inFolder.stdout).toMatch(/^\.plugin\.yaml \(repository-root name\): valid/);
    const byFile = registry('valid/.plugin.yaml');
    expect(byFile.status).toBe(0);
  });

  it('lists every violation with its field and exits 1', () => {
    const run = registry('invalid');
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n')).toEqual([
      'invalid/.plugin.yaml (repository-root name): 6 violations',
      '  /name: must be lowercase letters, digits and hyphens, starting with a letter (pattern ^[a-z][a-z0-9-]*$)',
      '  /version: must be a string; quote it (it was read as the number 1.1)',
      '  /descripton: is not a known field; did you mean "description"?',
      '  /tags/3: must be at most 30 characters (got 35)',
      '  /screenshots/0/url: is required',
      '  /homepage: must be an http:// or https:// URL (pattern ^https?://.+)',
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
    expect(run.stdout).toContain('duplicate-key/.plugin.json (repository-root and release-asset name): 1 violation\n  /description: duplicate key (first defined at line 4)\n');
  });

  it('checks the version against --tag', () => {
    const mismatch = registry('valid', '--tag', 'v1.2.4');
    expect(mismatch.status).toBe(1);
    expect(mismatch.stdout).toContain('  /version: must equal the release tag without its leading v: expected "1.2.4" (tag "v1.2.4"), got "1.2.3"\n');
    expect(registry('valid', '--tag', 'v1.2.3').status).toBe(0);
    expect(registry('valid', '--tag', '1.2.3').status).toBe(0);
  });

  it('prints {valid, violations, notes, manifest_sha256} with --json', () => {
    const valid = registry('valid', '--json');
    expect(valid.status).toBe(0);
    const report = JSON.parse(valid.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(['file', 'fileKind', 'manifest_sha256', 'notes', 'valid', 'violations']);
    const manifest: unknown = parseYaml(readFileSync(join(scratch, 'valid', '.plugin.yaml'), 'utf8'));
    const expectedHash = createHash('sha256').update(canonicalJson(manifest)).digest('hex');
    expect(report).toEqual({
      file: 'valid/.plugin.yaml',
      fileKind: 'repository-root name',
      valid: true,
      violations: [],
      notes: [expect.stringContaining('kinds were not checked')],
      manifest_sha256: expectedHash,
    });

    const invalid = registry('invalid', '--json');
    expect(invalid.status).toBe(1);
    const failure = JSON.parse(invalid.stdout) as { valid: boolean; violations: Array<{ path: string; message: string }>; manifest_sha256: unknown };
    expect(failure.valid).toBe(false);
    expect(failure.manifest_sha256).toBeNull();
    expect(failure.violations.map((item) => item.path)).toEqual(['/name', '/version', '/descripton', '/tags/3', '/screenshots/0/url', '/homepage']);
    expect(failure.violations[3]).toEqual({ path: '/tags/3', message: 'tags/3: must be at most 30 characters (got 35)' });
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
    expect(run.stdout).toContain('usage: registry validate [path] [--kinds FILE] [--tag vX.Y.Z] [--json]');
    expect(run.stdout).toContain('names .plugin.yaml, .plugin.yml, .plugin.json, .plugin, then the release-asset names');
  });
});
