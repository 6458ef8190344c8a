import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { githubWorkflowSan, provenanceWorld, type ProvenanceWorld } from '../../test/support/provenance-world';
import type { IntegrityAsset } from '../lib/integrity';
import type { CliIo } from './command';
import { checkProvenance, provenanceRefusal, type ProvenancePins, trustedRoots } from './provenance-check';
import { OperationalError } from './value-flags';

const ZIP_SHA = 'a'.repeat(64);
const asset = (attestation: unknown, name = 'app.zip', sha256 = ZIP_SHA): IntegrityAsset => ({
  name,
  sha256,
  size: 1,
  contentType: 'application/zip',
  arch: 'any',
  os: 'any',
  attestation,
});

describe("registry verify's provenance step", () => {
  let world: ProvenanceWorld;
  let dir: string;
  let io: CliIo;

  beforeAll(async () => {
    world = await provenanceWorld();
    dir = mkdtempSync(join(tmpdir(), 'provenance-check-'));
    writeFileSync(join(dir, 'root.json'), JSON.stringify(world.trustedRoot));
    writeFileSync(join(dir, 'not-a-root.json'), JSON.stringify({ mediaType: 'application/json' }));
    io = { stdout: () => undefined, stderr: () => undefined, cwd: dir, env: {}, fetch };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const NO_PINS: ProvenancePins = { issuers: [], workflows: [] };
  const check = async (
    attestations: unknown[],
    repoUrl: string,
    release: { publishedBy?: unknown; provenance?: unknown } = {},
    pins: Partial<ProvenancePins> = {},
  ) =>
    checkProvenance({
      assets: attestations.map((a, i) => asset(a, `app-${i}.zip`)),
      release,
      repoUrl: async () => repoUrl,
      roots: await trustedRoots(io, ['root.json']),
      pins: { ...NO_PINS, ...pins },
    });

  it("knows GitHub's CI issuer itself: the registry's record of it is not taken", async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    const outcome = await check([bundle], 'https://github.com/acme/app', { provenance: { issuer: 'https://evil.example' } });
    expect(outcome).toEqual({
      kind: 'verified',
      unpinnedIssuer: null,
      lines: [
        expect.stringContaining('built by https://github.com/acme/app .github/workflows/release.yml at refs/tags/v1.0.0, verified'),
        expect.any(String),
      ],
    });
    // The registry matches a repository to its forge whatever its scheme and `www.`; so does this.
    expect(await check([bundle], 'http://www.GitHub.com/acme/app/')).toMatchObject({ kind: 'verified' });
    const otherIssuer = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-0.zip': ZIP_SHA },
      issuer: 'https://evil.example',
    });
    expect(await check([otherIssuer], 'https://github.com/acme/app', { provenance: { issuer: 'https://evil.example' } })).toMatchObject({
      kind: 'refused',
      check: 'certificate-identity',
    });
  });

  it("on a host it does not know, reads the forge's shape from the signer and pins the issuer only with --issuer", async () => {
    const issuer = 'https://git.example.org';
    const bundle = await world.bundle({
      san: 'https://git.example.org/group/sub/app//.gitlab-ci.yml@refs/tags/v2.0.0',
      subjects: { 'app-0.zip': ZIP_SHA },
      issuer,
    });
    expect(await check([bundle], 'https://git.example.org/group/sub/app', {}, { issuers: [issuer] })).toEqual({
      kind: 'verified',
      unpinnedIssuer: null,
      lines: [
        expect.stringContaining('built by https://git.example.org/group/sub/app .gitlab-ci.yml at refs/tags/v2.0.0, verified'),
        expect.stringMatching(/^ {4}issuer https:\/\/git\.example\.org, signed at /),
      ],
    });
    // The issuer the registry recorded was read from this very certificate: it pins nothing, and is not taken.
    const unpinned = await check([bundle], 'https://git.example.org/group/sub/app', { provenance: { issuer } });
    expect(unpinned).toEqual({
      kind: 'verified',
      unpinnedIssuer: issuer,
      lines: [
        '  provenance: built by https://git.example.org/group/sub/app .gitlab-ci.yml at refs/tags/v2.0.0; signer identity verified, issuer not pinned (pass --issuer to pin it)',
        expect.stringMatching(/^ {4}issuer https:\/\/git\.example\.org \(not pinned\), signed at /),
      ],
    });
    expect(provenanceRefusal(unpinned, false)).toBeNull();
    expect(provenanceRefusal(unpinned, true)).toBe(
      `required: the certificate's issuer ${issuer} is not pinned (the repository is not on github.com or gitlab.com); pass --issuer URL to pin it`,
    );
    // A pinned issuer the certificate does not name is refused, whatever the registry recorded.
    const other = await check(
      [bundle],
      'https://git.example.org/group/sub/app',
      { provenance: { issuer } },
      { issuers: ['https://ci.example.org'] },
    );
    expect(other).toMatchObject({
      kind: 'refused',
      check: 'certificate-identity',
      message: expect.stringContaining(`issued on the word of ${issuer}, not of this forge's CI (https://ci.example.org)`),
    });
    const forgejo = await world.bundle({
      san: 'https://git.example.org/acme/app/.forgejo/workflows/release.yml@refs/tags/v1',
      subjects: { 'app-0.zip': ZIP_SHA },
      issuer,
    });
    expect(await check([forgejo], 'https://git.example.org/acme/app', {}, { issuers: [issuer, 'https://ci.example.org'] })).toMatchObject({
      kind: 'verified',
      unpinnedIssuer: null,
    });
  });

  it('pins the issuer of a known forge too when --issuer is given', async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    expect(await check([bundle], 'https://github.com/acme/app', {}, { issuers: ['https://ci.example.org'] })).toMatchObject({
      kind: 'refused',
      check: 'certificate-identity',
    });
    expect(
      await check([bundle], 'https://github.com/acme/app', {}, { issuers: ['https://token.actions.githubusercontent.com'] }),
    ).toMatchObject({ kind: 'verified', unpinnedIssuer: null });
  });

  it('on a host it does not know, takes the repository URL as the registry matches it: scheme, case, default port, `.git` and `/` aside', async () => {
    const issuer = 'https://git.example.org';
    const bundle = await world.bundle({
      san: 'https://git.example.org/acme/app/.gitea/workflows/release.yml@refs/tags/v1',
      subjects: { 'app-0.zip': ZIP_SHA },
      issuer,
    });
    for (const repoUrl of [
      'http://git.example.org/acme/app',
      'https://git.example.org:443/acme/app',
      'http://git.example.org:443/acme/app',
      'https://Git.Example.org./acme/app.git',
      'https://www.git.example.org/acme/app/',
    ]) {
      expect({ repoUrl, outcome: await check([bundle], repoUrl, {}, { issuers: [issuer] }) }).toMatchObject({
        repoUrl,
        outcome: {
          kind: 'verified',
          lines: [expect.stringContaining('built by https://git.example.org/acme/app .gitea/workflows/release.yml'), expect.any(String)],
        },
      });
    }
    // A forge on plain http (a lab, the tests' fake forge) signs as such; the certificate says which.
    const plain = await world.bundle({
      san: 'http://git.example.org:8080/acme/app/.github/workflows/release.yml@refs/tags/v1',
      subjects: { 'app-0.zip': ZIP_SHA },
      issuer,
    });
    expect(await check([plain], 'http://git.example.org:8080/acme/app.git', {}, { issuers: [issuer] })).toMatchObject({ kind: 'verified' });
    // Another port or another repository is still another repository.
    expect(await check([bundle], 'https://git.example.org:8443/acme/app', {}, { issuers: [issuer] })).toMatchObject({
      kind: 'refused',
      check: 'certificate-identity',
    });
    expect(await check([bundle], 'https://git.example.org/acme/app-evil', {}, { issuers: [issuer] })).toMatchObject({
      kind: 'refused',
      check: 'certificate-identity',
    });
  });

  it('checks the signing workflow against --workflow whatever the registry says of the trusted publisher', async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    const repoUrl = 'https://github.com/acme/app';
    expect(
      await check([bundle], repoUrl, {}, { workflows: ['.github/workflows/nightly.yml', '.github/workflows/release.yml'] }),
    ).toMatchObject({ kind: 'verified' });
    // A registry that dropped `publishedBy` (or the workflow in it) skips no check the user pinned.
    expect(await check([bundle], repoUrl, {}, { workflows: ['.github/workflows/nightly.yml'] })).toEqual({
      kind: 'refused',
      check: 'certificate-workflow',
      message:
        'the bundle was signed by workflow .github/workflows/release.yml, not by one --workflow names (.github/workflows/nightly.yml)',
    });
  });

  it('checks every asset it was given against the subjects, and refuses assets carrying different attestations', async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    const [one, two] = [asset(bundle, 'app-0.zip'), asset(bundle, 'app-1.zip', 'b'.repeat(64))];
    const roots = await trustedRoots(io, ['root.json']);
    const repoUrl = async () => 'https://github.com/acme/app';
    const pins = NO_PINS;
    expect(await checkProvenance({ assets: [one, two], release: {}, repoUrl, roots, pins })).toMatchObject({
      kind: 'refused',
      check: 'subject-digest',
      message: expect.stringContaining('app-1.zip'),
    });
    expect(await checkProvenance({ assets: [one, asset(null, 'app-1.zip')], release: {}, repoUrl, roots, pins })).toMatchObject({
      kind: 'refused',
      check: 'bundle',
    });
  });

  it('asks for the repository only when there is a Sigstore bundle to check', async () => {
    const roots = await trustedRoots(io, []);
    const repoUrl = () => Promise.reject(new Error('asked'));
    const pins = NO_PINS;
    expect(await checkProvenance({ assets: [asset(null)], release: {}, repoUrl, roots, pins })).toEqual({ kind: 'absent' });
    expect(await checkProvenance({ assets: [asset({ predicateType: 'x' })], release: {}, repoUrl, roots, pins })).toEqual({
      kind: 'unverified',
    });
    expect(await checkProvenance({ assets: [], release: {}, repoUrl, roots, pins })).toEqual({ kind: 'absent' });
  });

  it('refuses a --trusted-root that cannot be read or is not a trusted root', async () => {
    await expect(trustedRoots(io, ['absent.json'])).rejects.toThrow(OperationalError);
    await expect(trustedRoots(io, ['not-a-root.json'])).rejects.toThrow(/mediaType must be/);
    expect((await trustedRoots(io, ['root.json'])).map((root) => root.name)).toEqual(['public-good', 'trusted root #1 (root.json)']);
  });
});
