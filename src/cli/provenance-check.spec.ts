import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { githubWorkflowSan, provenanceWorld, type ProvenanceWorld } from '../../test/support/provenance-world';
import type { IntegrityAsset } from '../lib/integrity';
import type { CliIo } from './command';
import { checkProvenance, trustedRoots } from './provenance-check';
import { OperationalError } from './value-flags';

const ZIP_SHA = 'a'.repeat(64);
const asset = (attestation: unknown, name = 'app.zip', sha256 = ZIP_SHA): IntegrityAsset => ({ name, sha256, size: 1, contentType: 'application/zip', arch: 'any', os: 'any', attestation });

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

  const check = async (attestations: unknown[], repoUrl: string, release: { publishedBy?: unknown; provenance?: unknown } = {}) =>
    checkProvenance({ assets: attestations.map((a, i) => asset(a, `app-${i}.zip`)), release, repoUrl: async () => repoUrl, roots: await trustedRoots(io, ['root.json']) });

  it("knows GitHub's CI issuer itself: the registry's record of it is not taken", async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    const outcome = await check([bundle], 'https://github.com/acme/app', { provenance: { issuer: 'https://evil.example' } });
    expect(outcome).toEqual({ kind: 'verified', lines: [expect.stringContaining('built by https://github.com/acme/app .github/workflows/release.yml at refs/tags/v1.0.0, verified'), expect.any(String)] });
    // The registry matches a repository to its forge whatever its scheme and `www.`; so does this.
    expect(await check([bundle], 'http://www.GitHub.com/acme/app/')).toMatchObject({ kind: 'verified' });
    const otherIssuer = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA }, issuer: 'https://evil.example' });
    expect(await check([otherIssuer], 'https://github.com/acme/app', { provenance: { issuer: 'https://evil.example' } })).toMatchObject({ kind: 'refused', check: 'certificate-identity' });
  });

  it("on a host it does not know, reads the forge's shape from the signer and takes the issuer the registry recorded", async () => {
    const issuer = 'https://git.example.org';
    const bundle = await world.bundle({ san: 'https://git.example.org/group/sub/app//.gitlab-ci.yml@refs/tags/v2.0.0', subjects: { 'app-0.zip': ZIP_SHA }, issuer });
    expect(await check([bundle], 'https://git.example.org/group/sub/app', { provenance: { issuer } })).toMatchObject({
      kind: 'verified',
      lines: [expect.stringContaining('built by https://git.example.org/group/sub/app .gitlab-ci.yml at refs/tags/v2.0.0, verified'), expect.any(String)],
    });
    // Without the registry's word on the issuer, nothing is accepted.
    expect(await check([bundle], 'https://git.example.org/group/sub/app')).toMatchObject({ kind: 'refused', check: 'certificate-identity' });
    const forgejo = await world.bundle({ san: 'https://git.example.org/acme/app/.forgejo/workflows/release.yml@refs/tags/v1', subjects: { 'app-0.zip': ZIP_SHA }, issuer });
    expect(await check([forgejo], 'https://git.example.org/acme/app', { provenance: { issuer: `${issuer}/` } })).toMatchObject({ kind: 'verified' });
  });

  it('checks every asset it was given against the subjects, and refuses assets carrying different attestations', async () => {
    const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-0.zip': ZIP_SHA } });
    const [one, two] = [asset(bundle, 'app-0.zip'), asset(bundle, 'app-1.zip', 'b'.repeat(64))];
    const roots = await trustedRoots(io, ['root.json']);
    const repoUrl = async () => 'https://github.com/acme/app';
    expect(await checkProvenance({ assets: [one, two], release: {}, repoUrl, roots })).toMatchObject({ kind: 'refused', check: 'subject-digest', message: expect.stringContaining('app-1.zip') });
    expect(await checkProvenance({ assets: [one, asset(null, 'app-1.zip')], release: {}, repoUrl, roots })).toMatchObject({ kind: 'refused', check: 'bundle' });
  });

  it('asks for the repository only when there is a Sigstore bundle to check', async () => {
    const roots = await trustedRoots(io, []);
    const repoUrl = () => Promise.reject(new Error('asked'));
    expect(await checkProvenance({ assets: [asset(null)], release: {}, repoUrl, roots })).toEqual({ kind: 'absent' });
    expect(await checkProvenance({ assets: [asset({ predicateType: 'x' })], release: {}, repoUrl, roots })).toEqual({ kind: 'unverified' });
    expect(await checkProvenance({ assets: [], release: {}, repoUrl, roots })).toEqual({ kind: 'absent' });
  });

  it('refuses a --trusted-root that cannot be read or is not a trusted root', async () => {
    await expect(trustedRoots(io, ['absent.json'])).rejects.toThrow(OperationalError);
    await expect(trustedRoots(io, ['not-a-root.json'])).rejects.toThrow(/mediaType must be/);
    expect((await trustedRoots(io, ['root.json'])).map((root) => root.name)).toEqual(['public-good', 'trusted root #1 (root.json)']);
  });
});
