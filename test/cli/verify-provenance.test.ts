/**
 * `registry verify` checking a release's Sigstore provenance bundle itself: the built CLI (and the
 * single-file one), run as a child process against a real registry on loopback that verified the
 * bundles at ingest. The bundles come from an in-process Sigstore (@sigstore/mock's CA and
 * timestamp authority); nothing reaches the network. A proxy re-signing the release with the
 * registry's own key plays a compromised registry serving a bundle it should not vouch for.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BUNDLE_FILE } from '../../src/publishing/cli-download/cli-download.service';
import { IntegrityService } from '../../src/trust/integrity/integrity.service';
import { decodeSignedPayload, parseCompactJws } from '../../src/lib/integrity';
import { assetChunks, assetSha256 } from '../support/fake-forge';
import { provenanceWorld, type ProvenanceWorld } from '../support/provenance-world';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { RewritingProxy } from '../support/rewriting-proxy';
import { ensureBuilt } from '../support/built-dist';

const REPO_ROOT = join(__dirname, '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'registry.js');
const EXIT_PROVENANCE = 4;
// The in-process Sigstore certifies on GitHub Actions' word; the fake forge is a host the CLI does not know.
const ISSUER = 'https://token.actions.githubusercontent.com';

const LINUX = { size: 4_000, seed: 7 };
const ZIP = { size: 2_000, seed: 8 };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    // Asynchronous: the registry and the proxy live in this process and must keep serving.
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe('registry verify: the release provenance, checked by the client', () => {
  let w: PublishWorld;
  let sigstore: ProvenanceWorld;
  let proxy: RewritingProxy;
  let dir: string;
  let rootFile: string;
  let token: string;

  const repoUrl = (slug: string) => `${w.forge.url}/acme/${slug}`;
  const san = (repo: string) => `${w.forge.url}/${repo}/.github/workflows/release.yml@refs/tags/v1.0.0`;
  const subjects = (slug: string) => ({ [`${slug}-linux-x64.tar.gz`]: assetSha256(LINUX), [`${slug}.zip`]: assetSha256(ZIP) });
  const body = (slug: string, attestation?: unknown) => ({
    manifest: manifestYaml({ name: slug, version: '1.0.0', description: 'A plugin with provenance' }),
    manifestSource: 'plugin.yaml',
    version: 'v1.0.0',
    assets: [
      { name: `${slug}-linux-x64.tar.gz`, url: w.forge.asset(`/acme/${slug}/releases/download/v1.0.0/${slug}-linux-x64.tar.gz`, LINUX) },
      { name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/releases/download/v1.0.0/${slug}.zip`, ZIP) },
    ],
    repoUrl: repoUrl(slug),
    ...(attestation === undefined ? {} : { attestation }),
  });

  /** `registry verify` with the built CLI; every run remembers tree heads in its own file. */
  let runs = 0;
  const verify = (registry: string, target: string, ...extra: string[]) =>
    run(BIN, ['verify', target, '--registry', registry, '--state', join(dir, `heads-${++runs}.json`), ...extra], REPO_ROOT);

  /**
   * The release record as a compromised registry would serve it: the signed payload's attestation
   * replaced and signed again with the registry's own current key (no longer the logged signature,
   * so the log entry is dropped too: a release "from before the log" only warns).
   */
  async function resignedWith(upstream: Buffer, attestation: unknown): Promise<Buffer> {
    const record = JSON.parse(upstream.toString('utf8')) as { integrity: { jws: string; assets: unknown[] } };
    const decoded = decodeSignedPayload(parseCompactJws(record.integrity.jws).payloadBytes);
    if (!decoded.ok) throw new Error(decoded.reason);
    const assets = decoded.payload.assets.map((asset) => ({ ...asset, attestation }));
    const { jws } = await w.app.app.get(IntegrityService).signRelease({ ...decoded.payload, assets });
    return Buffer.from(JSON.stringify({ ...record, integrity: { jws, assets }, log_index: null }));
  }

  beforeAll(async () => {
    ensureBuilt(['dist/cli/commands/verify.js', 'dist/cli/provenance-check.js'], ['src/cli', 'src/lib']);
    sigstore = await provenanceWorld();
    dir = mkdtempSync(join(tmpdir(), 'registry-verify-provenance-'));
    rootFile = join(dir, 'trusted_root.json');
    writeFileSync(rootFile, JSON.stringify(sigstore.trustedRoot));
    w = await publishWorld({ PROVENANCE_TRUSTED_ROOTS: rootFile });
    token = (await w.tokenFor('prov-cli', ['publish:*'])).token;
    await w.push(token, 'built', body('built', await sigstore.bundle({ san: san('acme/built'), subjects: subjects('built') }))).expect(201);
    await w.push(token, 'plain', body('plain')).expect(201);
    await w.push(token, 'loose', body('loose', { predicateType: 'https://slsa.dev/provenance/v1' })).expect(201);
    proxy = await new RewritingProxy(w.app.url).start();
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => proxy.rewrites.clear());

  it('verifies the bundle against an extra trusted root and prints who built the release', async () => {
    const verified = await verify(w.app.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      `  provenance: built by ${repoUrl('built')} .github/workflows/release.yml at refs/tags/v1.0.0, verified\n`,
    );
    expect(verified.stdout).toMatch(
      /issuer https:\/\/token\.actions\.githubusercontent\.com, signed at \S+Z, verified against trusted root #1 \(trusted_root\.json\)/,
    );
    // One asset, from a local file: its digest alone must be a subject.
    const file = join(dir, 'built.zip');
    writeFileSync(file, Buffer.concat([...assetChunks(ZIP)]));
    const one = await verify(
      w.app.url,
      'built@1.0.0',
      '--asset',
      'built.zip',
      '--file',
      file,
      `--trusted-root=${rootFile}`,
      '--require-provenance',
      `--issuer=${ISSUER}/`,
    );
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(', verified\n');
    // Repeatable: the root that vouches for it may come after one that does not.
    const stranger = join(dir, 'stranger_root.json');
    writeFileSync(stranger, JSON.stringify((await provenanceWorld()).trustedRoot));
    const second = await verify(w.app.url, 'built@1.0.0', '--trusted-root', stranger, '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('verified against trusted root #2 (trusted_root.json)');
    const strangerOnly = await verify(w.app.url, 'built@1.0.0', '--trusted-root', stranger);
    expect(strangerOnly.code).toBe(EXIT_PROVENANCE);
  });

  it('on a forge it does not know, verifies the signer but says the issuer is not pinned without --issuer, and refuses that with --require-provenance', async () => {
    // The registry's recorded issuer was read from the certificate at ingest: taking it would check nothing.
    const record = await verify(w.app.url, 'built@1.0.0', '--trusted-root', rootFile);
    expect(record.code).toBe(0);
    expect(record.stdout).toContain(
      `  provenance: built by ${repoUrl('built')} .github/workflows/release.yml at refs/tags/v1.0.0; signer identity verified, issuer not pinned (pass --issuer to pin it)\n`,
    );
    expect(record.stdout).toContain(`    issuer ${ISSUER} (not pinned), signed at `);
    const required = await verify(w.app.url, 'built@1.0.0', '--trusted-root', rootFile, '--require-provenance');
    expect(required.code).toBe(EXIT_PROVENANCE);
    expect(required.stdout).toBe('');
    expect(required.stderr).toContain(
      `provenance REFUSED for built@1.0.0: required: the certificate's issuer ${ISSUER} is not pinned (the repository is not on github.com or gitlab.com); pass --issuer URL to pin it`,
    );
    // A pinned issuer the certificate does not name is refused; any of several pinned ones passes.
    const other = await verify(w.app.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', 'https://ci.example.org');
    expect(other.code).toBe(EXIT_PROVENANCE);
    expect(other.stderr).toContain(
      `certificate-identity: the certificate was issued on the word of ${ISSUER}, not of this forge's CI (https://ci.example.org)`,
    );
    const either = await verify(
      w.app.url,
      'built@1.0.0',
      '--trusted-root',
      rootFile,
      '--issuer',
      'https://ci.example.org',
      '--issuer',
      ISSUER,
      '--require-provenance',
    );
    expect(either.code).toBe(0);
    const bad = await verify(w.app.url, 'built@1.0.0', '--issuer', 'ci.example.org');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--issuer 'ci.example.org' is not an http(s) URL");
  });

  it("takes the plugin's repository URL as the registry matches it: scheme, default port, `.git` and `/` aside", async () => {
    const forgeSan = 'https://forge.example/acme/built/.github/workflows/release.yml@refs/tags/v1.0.0';
    const bundle = await sigstore.bundle({ san: forgeSan, subjects: subjects('built') });
    // Prefixes: the release's rewrite is found first, the plugin's answers only the plugin route.
    proxy.rewrites.set('/api/plugins/built/releases/1.0.0', (upstream) => resignedWith(upstream, bundle));
    for (const written of [
      'http://forge.example:443/acme/built.git/',
      'https://forge.example:443/acme/built',
      'http://FORGE.example/acme/built/',
    ]) {
      proxy.rewrites.set('/api/plugins/built', (upstream) =>
        Buffer.from(JSON.stringify({ ...JSON.parse(upstream.toString('utf8')), repoUrl: written })),
      );
      const verified = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
      expect({ written, code: verified.code, stderr: verified.stderr }).toEqual({
        written,
        code: 0,
        stderr: expect.not.stringContaining('REFUSED'),
      });
      expect(verified.stdout).toContain(
        '  provenance: built by https://forge.example/acme/built .github/workflows/release.yml at refs/tags/v1.0.0, verified\n',
      );
    }
    proxy.rewrites.set('/api/plugins/built', (upstream) =>
      Buffer.from(JSON.stringify({ ...JSON.parse(upstream.toString('utf8')), repoUrl: 'https://forge.example:8443/acme/built' })),
    );
    const elsewhere = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(elsewhere.code).toBe(EXIT_PROVENANCE);
  });

  it('refuses a bundle no trusted root it was given vouches for (the shipped public-good root alone), with its own exit code', async () => {
    const refused = await verify(w.app.url, 'built@1.0.0');
    expect(refused.code).toBe(EXIT_PROVENANCE);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^provenance REFUSED for built@1\.0\.0: trusted-root: .*\(trusted root public-good\)/);
    const unreadable = await verify(w.app.url, 'built@1.0.0', '--trusted-root', join(dir, 'absent.json'));
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('cannot read trusted root');
  });

  it('refuses a bundle whose statement does not name the digest of an asset it checked', async () => {
    const tampered = await sigstore.bundle({ san: san('acme/built'), subjects: { ...subjects('built'), 'built.zip': 'c'.repeat(64) } });
    proxy.rewrites.set('/api/plugins/built/releases/1.0.0', (upstream) => resignedWith(upstream, tampered));
    const refused = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(refused.code).toBe(EXIT_PROVENANCE);
    expect(refused.stderr).toContain(
      `provenance REFUSED for built@1.0.0: subject-digest: the statement has no subject with the SHA-256 of asset built.zip (${assetSha256(ZIP)})`,
    );
    // The same bundle passes for the one asset it does name: the check is per asset verified.
    const linux = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--asset', 'built-linux-x64.tar.gz');
    expect(linux.code).toBe(0);
  });

  it("refuses a bundle built from another repository than the plugin's", async () => {
    const other = await sigstore.bundle({ san: san('acme/other'), subjects: subjects('built') });
    proxy.rewrites.set('/api/plugins/built/releases/1.0.0', (upstream) => resignedWith(upstream, other));
    const refused = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(refused.code).toBe(EXIT_PROVENANCE);
    expect(refused.stderr).toContain(
      `provenance REFUSED for built@1.0.0: certificate-identity: the certificate's source repository ${repoUrl('other')} is not ${repoUrl('built')}`,
    );
  });

  it("refuses a bundle signed by another workflow than the release's trusted publisher", async () => {
    proxy.rewrites.set('/api/plugins/built/releases/1.0.0', (upstream) =>
      Buffer.from(
        JSON.stringify({
          ...JSON.parse(upstream.toString('utf8')),
          publishedBy: { kind: 'trusted', forge: 'fakehub', repository: 'acme/built', workflow: '.github/workflows/nightly.yml' },
        }),
      ),
    );
    const refused = await verify(proxy.url, 'built@1.0.0', '--trusted-root', rootFile, '--issuer', ISSUER);
    expect(refused.code).toBe(EXIT_PROVENANCE);
    expect(refused.stderr).toContain('certificate-workflow: the bundle was signed by workflow .github/workflows/release.yml');
  });

  it('checks the signing workflow against --workflow even when the registry names no trusted publisher', async () => {
    // `publishedBy` is unsigned: a compromised registry drops it to skip the trusted publisher's workflow.
    proxy.rewrites.set('/api/plugins/built/releases/1.0.0', (upstream) =>
      Buffer.from(JSON.stringify({ ...JSON.parse(upstream.toString('utf8')), publishedBy: null })),
    );
    const pinned = await verify(
      proxy.url,
      'built@1.0.0',
      '--trusted-root',
      rootFile,
      '--issuer',
      ISSUER,
      '--workflow',
      '.github/workflows/nightly.yml',
    );
    expect(pinned.code).toBe(EXIT_PROVENANCE);
    expect(pinned.stderr).toContain(
      'provenance REFUSED for built@1.0.0: certificate-workflow: the bundle was signed by workflow .github/workflows/release.yml, not by one --workflow names (.github/workflows/nightly.yml)',
    );
    const release = await verify(
      proxy.url,
      'built@1.0.0',
      '--trusted-root',
      rootFile,
      '--issuer',
      ISSUER,
      '--workflow',
      '.github/workflows/nightly.yml',
      '--workflow=.github/workflows/release.yml',
    );
    expect(release.code).toBe(0);
    expect(release.stdout).toContain('.github/workflows/release.yml at refs/tags/v1.0.0, verified\n');
  });

  it('says a release has no attestation, and fails on it only with --require-provenance', async () => {
    const plain = await verify(w.app.url, 'plain@1.0.0');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('  no provenance attestation\n');
    const required = await verify(w.app.url, 'plain@1.0.0', '--require-provenance');
    expect(required.code).toBe(EXIT_PROVENANCE);
    expect(required.stderr).toContain('provenance REFUSED for plain@1.0.0: required: the release has no provenance attestation');
  });

  it('reports an attestation that is not a Sigstore bundle as unverified, as the registry does', async () => {
    const loose = await verify(w.app.url, 'loose@1.0.0');
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain('  provenance: unverified');
    const required = await verify(w.app.url, 'loose@1.0.0', '--require-provenance');
    expect(required.code).toBe(EXIT_PROVENANCE);
    expect(required.stderr).toContain('required: ');
  });

  it('verifies provenance with the single-file CLI too, run from an empty folder', async () => {
    if (!existsSync(CLI_BUNDLE_FILE)) throw new Error(`${CLI_BUNDLE_FILE} is missing: run \`npm run build\` first`);
    const folder = mkdtempSync(join(dir, 'bundle-'));
    copyFileSync(CLI_BUNDLE_FILE, join(folder, 'registry.js'));
    copyFileSync(rootFile, join(folder, 'root.json'));
    const verified = await run(
      'registry.js',
      ['verify', 'built@1.0.0', '--registry', w.app.url, '--state', 'heads.json', '--trusted-root', 'root.json', '--issuer', ISSUER],
      folder,
    );
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(
      `provenance: built by ${repoUrl('built')} .github/workflows/release.yml at refs/tags/v1.0.0, verified`,
    );
    const refused = await run('registry.js', ['verify', 'built@1.0.0', '--registry', w.app.url, '--state', 'heads.json'], folder);
    expect(refused.code).toBe(EXIT_PROVENANCE);
  });
});
