import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { githubWorkflowSan, provenanceWorld, type ProvenanceWorld } from '../../../test/support/provenance-world';
import { derUtf8String, subjectAlternativeNamePattern } from './signer-identity';
import { publicGoodTrustedRoot, TrustedRootError, type TrustedRootMaterial, trustedRootMaterial } from './trusted-roots';
import { isSigstoreBundle, type ProvenanceExpectation, verifyProvenance } from './verify-provenance';

const FIXTURES = join(__dirname, '../../../test/fixtures/provenance');
const ZIP_SHA = 'a'.repeat(64);
const TGZ_SHA = 'b'.repeat(64);
const REPO = 'https://github.com/acme/app';

const expectation = (overrides: Partial<ProvenanceExpectation> = {}): ProvenanceExpectation => ({
  forge: 'github',
  repoUrl: REPO,
  workflow: null,
  assets: [
    { name: 'app-linux.zip', sha256: ZIP_SHA },
    { name: 'app-darwin.tgz', sha256: TGZ_SHA },
  ],
  ...overrides,
});

describe('verifyProvenance with an in-process CA and timestamp authority', () => {
  let world: ProvenanceWorld;
  let roots: TrustedRootMaterial[];
  let good: Record<string, unknown>;

  beforeAll(async () => {
    world = await provenanceWorld();
    roots = [trustedRootMaterial('test', world.trustedRoot)];
    good = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA } });
  });

  it('verifies a bundle whose statement names every asset, signed by the repository CI', () => {
    const outcome = verifyProvenance(good, expectation(), roots);
    expect(outcome).toMatchObject({
      ok: true,
      root: 'test',
      signer: { repository: REPO, workflow: '.github/workflows/release.yml', ref: 'refs/tags/v1.0.0', issuer: 'https://token.actions.githubusercontent.com' },
    });
    if (outcome.ok) expect(outcome.signedAt).toBeInstanceOf(Date);
  });

  it("accepts a trusted publisher's own workflow and refuses another", () => {
    expect(verifyProvenance(good, expectation({ workflow: '.github/workflows/release.yml' }), roots).ok).toBe(true);
    expect(verifyProvenance(good, expectation({ workflow: '.github/workflows/nightly.yml' }), roots)).toMatchObject({ ok: false, check: 'certificate-workflow' });
  });

  it('refuses a statement missing one asset digest', async () => {
    const partial = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-linux.zip': ZIP_SHA } });
    expect(verifyProvenance(partial, expectation(), roots)).toMatchObject({ ok: false, check: 'subject-digest', message: expect.stringContaining('app-darwin.tgz') });
  });

  it('refuses a wrong digest, and an asset that was never hashed', () => {
    expect(verifyProvenance(good, expectation({ assets: [{ name: 'x.zip', sha256: 'c'.repeat(64) }] }), roots)).toMatchObject({ ok: false, check: 'subject-digest' });
    expect(verifyProvenance(good, expectation({ assets: [{ name: 'huge.zip', sha256: null }] }), roots)).toMatchObject({ ok: false, check: 'subject-digest' });
  });

  it('refuses a certificate for another repository', async () => {
    const other = await world.bundle({ san: githubWorkflowSan('acme/other'), subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA } });
    expect(verifyProvenance(other, expectation(), roots)).toMatchObject({ ok: false, check: 'certificate-identity' });
  });

  it('refuses identities that only an unanchored or unescaped pattern would accept', async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const lookalikes = [
      githubWorkflowSan('acme/app-evil'),
      `https://github.com/evil/x/.github/workflows/r.yml@refs/heads/main?${REPO}/.github/workflows/release.yml@refs/tags/v1`,
      'https://github.com/acme/appX/.github/workflows/release.yml@refs/tags/v1.0.0',
      'https://githubXcom/acme/app/.github/workflows/release.yml@refs/tags/v1.0.0',
    ];
    for (const san of lookalikes) {
      // The library's own policy, given the plain repository URL, is fooled by the first: the trap.
      expect(san.match(REPO) !== null || san.startsWith('https://githubXcom')).toBe(true);
      const bundle = await world.bundle({ san, subjects });
      expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({ ok: false, check: 'certificate-identity' });
    }
  });

  it("refuses a certificate whose source-repository extension (DER UTF8String) names another repository", async () => {
    const bundle = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
      extensions: [{ oid: '1.3.6.1.4.1.57264.1.12', value: 'https://github.com/acme/app-evil' }],
    });
    expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({ ok: false, check: 'certificate-identity', message: expect.stringContaining('app-evil') });
    const same = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
      extensions: [
        { oid: '1.3.6.1.4.1.57264.1.12', value: REPO },
        { oid: '1.3.6.1.4.1.57264.1.14', value: 'refs/tags/v1.0.0-src' },
        { oid: '1.3.6.1.4.1.57264.1.1', value: 'https://legacy.issuer', legacy: true },
      ],
    });
    expect(verifyProvenance(same, expectation(), roots)).toMatchObject({ ok: true, signer: { ref: 'refs/tags/v1.0.0-src', issuer: 'https://legacy.issuer' } });
  });

  it('reads GitLab CI and Forgejo Actions identities in the shapes Fulcio issues', async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const gitlab = await world.bundle({ san: 'https://gitlab.com/group/sub/app//.gitlab-ci.yml@refs/tags/v2.0.0', subjects });
    expect(verifyProvenance(gitlab, expectation({ forge: 'gitlab', repoUrl: 'https://gitlab.com/group/sub/app', workflow: '.gitlab-ci.yml' }), roots)).toMatchObject({
      ok: true,
      signer: { repository: 'https://gitlab.com/group/sub/app', workflow: '.gitlab-ci.yml', ref: 'refs/tags/v2.0.0' },
    });
    expect(verifyProvenance(gitlab, expectation({ forge: 'gitlab', repoUrl: 'https://gitlab.com/group/sub' }), roots)).toMatchObject({ ok: false, check: 'certificate-identity' });
    const forgejo = await world.bundle({ san: 'https://codeberg.org/acme/app/.forgejo/workflows/release.yml@refs/tags/v1', subjects });
    expect(verifyProvenance(forgejo, expectation({ forge: 'forgejo', repoUrl: 'https://codeberg.org/acme/app' }), roots)).toMatchObject({ ok: true, signer: { workflow: '.forgejo/workflows/release.yml' } });
  });

  it('refuses a tampered payload (signature) and a tampered signature (its timestamp no longer covers it)', () => {
    const envelope = good.dsseEnvelope as { payload: string; signatures: { sig: string }[] };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as Record<string, unknown>;
    const payload = Buffer.from(JSON.stringify({ ...statement, predicate: { forged: true } })).toString('base64');
    const tamperedPayload = { ...good, dsseEnvelope: { ...envelope, payload } };
    expect(verifyProvenance(tamperedPayload, expectation(), roots)).toMatchObject({ ok: false, check: 'signature' });
    const sig = Buffer.from(envelope.signatures[0].sig, 'base64');
    sig[sig.length - 1] ^= 1;
    const tamperedSignature = { ...good, dsseEnvelope: { ...envelope, signatures: [{ sig: sig.toString('base64'), keyid: '' }] } };
    expect(verifyProvenance(tamperedSignature, expectation(), roots)).toMatchObject({ ok: false, check: 'timestamp' });
  });

  it('refuses a certificate from a CA the roots do not trust', async () => {
    const stranger = await provenanceWorld();
    const foreign = await stranger.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA } });
    // Same timestamp authority as ours, CA of the stranger: only the chain fails.
    const mixed = trustedRootMaterial('mixed', { ...stranger.trustedRoot, certificateAuthorities: world.trustedRoot.certificateAuthorities });
    expect(verifyProvenance(foreign, expectation(), [mixed])).toMatchObject({ ok: false, check: 'trusted-root' });
    expect(verifyProvenance(foreign, expectation(), roots)).toMatchObject({ ok: false, check: 'timestamp' });
    expect(verifyProvenance(foreign, expectation(), [...roots, trustedRootMaterial('stranger', stranger.trustedRoot)])).toMatchObject({ ok: true, root: 'stranger' });
  });

  it('refuses a root with a transparency log when the bundle has no log entry', () => {
    const withLog = trustedRootMaterial('with-log', { ...world.trustedRoot, tlogs: readPublicGood().tlogs });
    expect(verifyProvenance(good, expectation(), [withLog])).toMatchObject({ ok: false, check: 'tlog' });
  });

  it('refuses what is not a DSSE in-toto bundle', async () => {
    expect(verifyProvenance({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }, expectation(), roots)).toMatchObject({ ok: false, check: 'bundle' });
    const other = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: {}, payloadType: 'text/plain' });
    expect(verifyProvenance(other, expectation(), roots)).toMatchObject({ ok: false, check: 'statement' });
    const notStatement = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: {}, statement: { _type: 'nope' } });
    expect(verifyProvenance(notStatement, expectation(), roots)).toMatchObject({ ok: false, check: 'statement' });
  });
});

function readPublicGood(): { tlogs: unknown[] } {
  return JSON.parse(readFileSync(join(__dirname, 'public-good-trusted-root.json'), 'utf8')) as { tlogs: unknown[] };
}

describe('verifyProvenance with a real GitHub Actions bundle and the public-good root', () => {
  // cli/cli pkg/cmd/attestation/test/data/custom-issuer.sigstore.json and its artifact (MIT):
  // signed on GitHub Actions through public-good Fulcio, logged in Rekor, September 2024.
  const bundle = JSON.parse(readFileSync(join(FIXTURES, 'github-actions-public-good.sigstore.json'), 'utf8')) as unknown;
  const artifact = readFileSync(join(FIXTURES, 'github-actions-public-good.artifact'));
  const sha256 = createHash('sha256').update(artifact).digest('hex');
  const real = (overrides: Partial<ProvenanceExpectation> = {}): ProvenanceExpectation => ({
    forge: 'github',
    repoUrl: 'https://github.com/too-legit/attest',
    workflow: null,
    assets: [{ name: 'artifact', sha256 }],
    ...overrides,
  });

  it('verifies offline: certificate chain, SCT, Rekor entry, signature, identity and subject', () => {
    expect(verifyProvenance(bundle, real(), [publicGoodTrustedRoot()])).toEqual({
      ok: true,
      root: 'public-good',
      signedAt: new Date(1726082343 * 1000),
      signer: {
        repository: 'https://github.com/too-legit/attest',
        workflow: '.github/workflows/integration.yml',
        ref: 'refs/heads/main',
        issuer: 'https://token.actions.githubusercontent.com/hammer-time',
        subjectAlternativeName: 'https://github.com/too-legit/attest/.github/workflows/integration.yml@refs/heads/main',
      },
    });
  });

  it('still refuses it for another repository, another digest, or an in-process root', async () => {
    expect(verifyProvenance(bundle, real({ repoUrl: 'https://github.com/too-legit/attest-evil' }), [publicGoodTrustedRoot()])).toMatchObject({ ok: false, check: 'certificate-identity' });
    expect(verifyProvenance(bundle, real({ assets: [{ name: 'artifact', sha256: 'f'.repeat(64) }] }), [publicGoodTrustedRoot()])).toMatchObject({ ok: false, check: 'subject-digest' });
    const world = await provenanceWorld();
    expect(verifyProvenance(bundle, real(), [trustedRootMaterial('test', world.trustedRoot)])).toMatchObject({ ok: false, check: 'trusted-root' });
  });
});

describe('the pieces', () => {
  it('recognises Sigstore bundle media types only', () => {
    expect(isSigstoreBundle({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' })).toBe(true);
    expect(isSigstoreBundle({ mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.2' })).toBe(true);
    expect(isSigstoreBundle({ mediaType: 'application/vnd.in-toto+json' })).toBe(false);
    expect(isSigstoreBundle({ predicateType: 'https://slsa.dev/provenance/v1' })).toBe(false);
    expect(isSigstoreBundle(null)).toBe(false);
  });

  it('decodes DER UTF8Strings, short and long form, and nothing else', () => {
    expect(derUtf8String(Buffer.from([0x0c, 0x02, 0x68, 0x69]))).toBe('hi');
    const long = 'x'.repeat(200);
    expect(derUtf8String(Buffer.concat([Buffer.from([0x0c, 0x81, 200]), Buffer.from(long)]))).toBe(long);
    expect(derUtf8String(Buffer.from('https://raw'))).toBeNull();
    expect(derUtf8String(Buffer.from([0x0c, 0x05, 0x68]))).toBeNull();
  });

  it('builds anchored, escaped SAN patterns per forge', () => {
    const github = subjectAlternativeNamePattern('github', 'https://github.com/acme/app.git');
    expect(github.test('https://github.com/Acme/App/.github/workflows/r.yml@refs/tags/v1')).toBe(true);
    expect(github.test('https://github.com/acme/app/.github/workflows/r.yml@refs/tags/v1@x')).toBe(false);
    const gitlab = subjectAlternativeNamePattern('gitlab', 'https://gitlab.com/group/sub/project');
    expect(gitlab.exec('https://gitlab.com/group/sub/project//.gitlab-ci.yml@refs/heads/main')?.slice(1)).toEqual(['.gitlab-ci.yml', 'refs/heads/main']);
    expect(gitlab.test('https://gitlab.com/group/sub/project-evil//.gitlab-ci.yml@refs/heads/main')).toBe(false);
  });

  it('refuses a trusted root without a certificate authority or of another media type', () => {
    expect(() => trustedRootMaterial('x', { mediaType: 'application/json' })).toThrow(TrustedRootError);
    expect(() => trustedRootMaterial('x', { mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', certificateAuthorities: [] })).toThrow(/no certificate authority/);
  });
});
