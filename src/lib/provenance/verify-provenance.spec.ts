import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GITHUB_ISSUER, githubWorkflowSan, provenanceWorld, type ProvenanceWorld } from '../../../test/support/provenance-world';
import { derUtf8String, expectedIssuers, subjectAlternativeNamePattern } from './signer-identity';
import { publicGoodTrustedRoot, TrustedRootError, type TrustedRootMaterial, trustedRootMaterial } from './trusted-roots';
import { checkSubjects, isSigstoreBundle, type ProvenanceExpectation, verifyProvenance } from './verify-provenance';

const FIXTURES = join(__dirname, '../../../test/fixtures/provenance');
const ZIP_SHA = 'a'.repeat(64);
const TGZ_SHA = 'b'.repeat(64);
const REPO = 'https://github.com/acme/app';

const SOURCE_REPOSITORY = '1.3.6.1.4.1.57264.1.12';
const ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';

const expectation = (overrides: Partial<ProvenanceExpectation> = {}): ProvenanceExpectation => ({
  forge: 'github',
  forgeUrl: 'https://github.com',
  repoUrl: REPO,
  workflow: null,
  issuers: [GITHUB_ISSUER],
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
      signer: {
        repository: REPO,
        workflow: '.github/workflows/release.yml',
        ref: 'refs/tags/v1.0.0',
        issuer: 'https://token.actions.githubusercontent.com',
      },
    });
    if (outcome.ok) expect(outcome.signedAt).toBeInstanceOf(Date);
  });

  it("accepts a trusted publisher's own workflow and refuses another", () => {
    expect(verifyProvenance(good, expectation({ workflow: '.github/workflows/release.yml' }), roots).ok).toBe(true);
    expect(verifyProvenance(good, expectation({ workflow: '.github/workflows/nightly.yml' }), roots)).toMatchObject({
      ok: false,
      check: 'certificate-workflow',
    });
  });

  it('refuses a statement missing one asset digest', async () => {
    const partial = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects: { 'app-linux.zip': ZIP_SHA } });
    expect(verifyProvenance(partial, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'subject-digest',
      message: expect.stringContaining('app-darwin.tgz'),
    });
  });

  it('refuses a wrong digest, and an asset that was never hashed', () => {
    expect(verifyProvenance(good, expectation({ assets: [{ name: 'x.zip', sha256: 'c'.repeat(64) }] }), roots)).toMatchObject({
      ok: false,
      check: 'subject-digest',
    });
    expect(verifyProvenance(good, expectation({ assets: [{ name: 'huge.zip', sha256: null }] }), roots)).toMatchObject({
      ok: false,
      check: 'subject-digest',
    });
  });

  it('refuses a certificate for another repository', async () => {
    const other = await world.bundle({
      san: githubWorkflowSan('acme/other'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
    });
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

  it('refuses a certificate whose source-repository extension (DER UTF8String) names another repository', async () => {
    const bundle = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
      extensions: [
        { oid: ISSUER_V2, value: GITHUB_ISSUER },
        { oid: '1.3.6.1.4.1.57264.1.12', value: 'https://github.com/acme/app-evil' },
      ],
    });
    expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('app-evil'),
    });
    const same = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
      extensions: [
        { oid: '1.3.6.1.4.1.57264.1.12', value: REPO },
        { oid: '1.3.6.1.4.1.57264.1.14', value: 'refs/tags/v1.0.0-src' },
        { oid: '1.3.6.1.4.1.57264.1.1', value: `${GITHUB_ISSUER}/`, legacy: true },
      ],
    });
    expect(verifyProvenance(same, expectation(), roots)).toMatchObject({
      ok: true,
      signer: { ref: 'refs/tags/v1.0.0-src', issuer: `${GITHUB_ISSUER}/` },
    });
  });

  it('reads GitLab CI and Forgejo Actions identities in the shapes Fulcio issues', async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const gitlab = await world.bundle({
      san: 'https://gitlab.com/group/sub/app//.gitlab-ci.yml@refs/tags/v2.0.0',
      subjects,
      issuer: 'https://gitlab.com',
    });
    const onGitlab = { forge: 'gitlab' as const, forgeUrl: 'https://gitlab.com', issuers: ['https://gitlab.com'] };
    expect(
      verifyProvenance(
        gitlab,
        expectation({ ...onGitlab, repoUrl: 'https://gitlab.com/group/sub/app', workflow: '.gitlab-ci.yml' }),
        roots,
      ),
    ).toMatchObject({
      ok: true,
      signer: { repository: 'https://gitlab.com/group/sub/app', workflow: '.gitlab-ci.yml', ref: 'refs/tags/v2.0.0' },
    });
    expect(verifyProvenance(gitlab, expectation({ ...onGitlab, repoUrl: 'https://gitlab.com/group/sub' }), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
    });
    const forgejoIssuer = 'https://codeberg.org/api/actions';
    const forgejo = await world.bundle({
      san: 'https://codeberg.org/acme/app/.forgejo/workflows/release.yml@refs/tags/v1',
      subjects,
      issuer: forgejoIssuer,
    });
    const onCodeberg = {
      forge: 'forgejo' as const,
      forgeUrl: 'https://codeberg.org',
      repoUrl: 'https://codeberg.org/acme/app',
      issuers: [forgejoIssuer],
    };
    expect(verifyProvenance(forgejo, expectation(onCodeberg), roots)).toMatchObject({
      ok: true,
      signer: { workflow: '.forgejo/workflows/release.yml' },
    });
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
    // Our timestamp authority signed it, so this is the timestamp failing, not an unknown Sigstore.
    expect(verifyProvenance(tamperedSignature, expectation(), roots)).toMatchObject({ ok: false, check: 'timestamp' });
  });

  it('refuses a certificate from a CA the roots do not trust', async () => {
    const stranger = await provenanceWorld();
    const foreign = await stranger.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA },
    });
    // Same timestamp authority as ours, CA of the stranger: only the chain fails.
    const mixed = trustedRootMaterial('mixed', {
      ...stranger.trustedRoot,
      certificateAuthorities: world.trustedRoot.certificateAuthorities,
    });
    expect(verifyProvenance(foreign, expectation(), [mixed])).toMatchObject({ ok: false, check: 'trusted-root' });
    // A stranger's CA and timestamp authority: no root lists its TSA, so the root is what is missing.
    expect(verifyProvenance(foreign, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'trusted-root',
      message: expect.stringContaining('timestamp authority'),
    });
    expect(verifyProvenance(foreign, expectation(), [...roots, trustedRootMaterial('stranger', stranger.trustedRoot)])).toMatchObject({
      ok: true,
      root: 'stranger',
    });
  });

  it('refuses a root with a transparency log when the bundle has no log entry', () => {
    const withLog = trustedRootMaterial('with-log', { ...world.trustedRoot, tlogs: readPublicGood().tlogs });
    expect(verifyProvenance(good, expectation(), [withLog])).toMatchObject({ ok: false, check: 'tlog' });
  });

  it('refuses a source-repository extension that is not a DER UTF8String, and a certificate naming no source repository', async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const issuer = { oid: ISSUER_V2, value: GITHUB_ISSUER };
    // Raw bytes, as the legacy extensions are written: present, so never read as "absent".
    const raw = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects,
      extensions: [issuer, { oid: SOURCE_REPOSITORY, value: 'https://github.com/evil/x', legacy: true }],
    });
    expect(verifyProvenance(raw, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('not a DER UTF8String'),
    });
    const none = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects, extensions: [issuer] });
    expect(verifyProvenance(none, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('no source repository'),
    });
    // Certificates from before 1.12 name the GitHub repository in 1.5, raw `owner/repo`.
    const legacy = (repository: string) =>
      world.bundle({
        san: githubWorkflowSan('acme/app'),
        subjects,
        extensions: [issuer, { oid: '1.3.6.1.4.1.57264.1.5', value: repository, legacy: true }],
      });
    expect(verifyProvenance(await legacy('acme/app'), expectation(), roots)).toMatchObject({ ok: true, signer: { repository: REPO } });
    expect(verifyProvenance(await legacy('evil/x'), expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('evil/x'),
    });
    // The repository's own workflow called from elsewhere: the SAN is ours, the build is not.
    const called = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects, sourceRepository: 'https://github.com/evil/x' });
    expect(verifyProvenance(called, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('evil/x'),
    });
  });

  it("refuses a certificate issued on the word of another forge's issuer, or of none", async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    for (const issuer of [
      'https://gitlab.com',
      'https://token.actions.githubusercontent.com.evil.example',
      'https://token.actions.githubusercontent.com/a/b',
    ]) {
      const bundle = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects, issuer });
      expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({
        ok: false,
        check: 'certificate-identity',
        message: expect.stringContaining(issuer),
      });
    }
    const none = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects,
      extensions: [{ oid: SOURCE_REPOSITORY, value: REPO }],
    });
    expect(verifyProvenance(none, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
      message: expect.stringContaining('no OIDC issuer'),
    });
    const enterprise = await world.bundle({ san: githubWorkflowSan('acme/app'), subjects, issuer: `${GITHUB_ISSUER}/acme-corp` });
    expect(verifyProvenance(enterprise, expectation(), roots)).toMatchObject({
      ok: true,
      signer: { issuer: `${GITHUB_ISSUER}/acme-corp` },
    });
    // GitLab's issuer is the instance itself; a GitHub-issued certificate does not vouch for it.
    const onGitlab = {
      forge: 'gitlab' as const,
      forgeUrl: 'https://gitlab.com',
      repoUrl: 'https://gitlab.com/acme/app',
      issuers: expectedIssuers({ type: 'gitlab', webUrl: 'https://gitlab.com' }),
    };
    const gitlabSan = 'https://gitlab.com/acme/app//.gitlab-ci.yml@refs/tags/v1';
    expect(verifyProvenance(await world.bundle({ san: gitlabSan, subjects }), expectation(onGitlab), roots)).toMatchObject({
      ok: false,
      check: 'certificate-identity',
    });
    expect(
      verifyProvenance(await world.bundle({ san: gitlabSan, subjects, issuer: 'https://gitlab.com' }), expectation(onGitlab), roots),
    ).toMatchObject({ ok: true });
  });

  it("accepts a reusable workflow of another repository when the source repository is the plugin's, naming it with its repository", async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const shared = githubWorkflowSan('acme/shared', '.github/workflows/build.yml');
    const bundle = await world.bundle({ san: shared, subjects, sourceRepository: REPO });
    expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({
      ok: true,
      signer: { repository: REPO, workflow: 'acme/shared/.github/workflows/build.yml', subjectAlternativeName: shared },
    });
    // A trusted publisher names a reusable workflow as its OIDC identity does: with the repository.
    expect(verifyProvenance(bundle, expectation({ workflow: 'acme/shared/.github/workflows/build.yml' }), roots).ok).toBe(true);
    expect(verifyProvenance(bundle, expectation({ workflow: '.github/workflows/build.yml' }), roots)).toMatchObject({
      ok: false,
      check: 'certificate-workflow',
    });
    // Built from the shared repository itself: not this plugin's build.
    const own = await world.bundle({ san: shared, subjects });
    expect(verifyProvenance(own, expectation(), roots)).toMatchObject({ ok: false, check: 'certificate-identity' });
    // GitLab: a CI configuration of another project, named as ci_config_ref_uri names it.
    const gitlab = await world.bundle({
      san: 'https://gitlab.com/ci/templates//release.yml@refs/heads/main',
      subjects,
      issuer: 'https://gitlab.com',
      sourceRepository: 'https://gitlab.com/acme/app',
    });
    const onGitlab = {
      forge: 'gitlab' as const,
      forgeUrl: 'https://gitlab.com',
      repoUrl: 'https://gitlab.com/acme/app',
      issuers: ['https://gitlab.com'],
    };
    expect(verifyProvenance(gitlab, expectation(onGitlab), roots)).toMatchObject({
      ok: true,
      signer: { repository: 'https://gitlab.com/acme/app', workflow: 'gitlab.com/ci/templates//release.yml' },
    });
  });

  it('refuses a statement that is not SLSA build provenance', async () => {
    const subjects = [
      { name: 'app-linux.zip', digest: { sha256: ZIP_SHA } },
      { name: 'app-darwin.tgz', digest: { sha256: TGZ_SHA } },
    ];
    for (const predicateType of ['https://spdx.dev/Document', undefined, 'https://slsa.dev/provenance/v0.1']) {
      const bundle = await world.bundle({
        san: githubWorkflowSan('acme/app'),
        subjects: {},
        statement: { _type: 'https://in-toto.io/Statement/v1', subject: subjects, predicateType, predicate: {} },
      });
      expect(verifyProvenance(bundle, expectation(), roots)).toMatchObject({
        ok: false,
        check: 'statement',
        message: expect.stringContaining('SLSA'),
      });
    }
    const v02 = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects: {},
      statement: {
        _type: 'https://in-toto.io/Statement/v0.1',
        subject: subjects,
        predicateType: 'https://slsa.dev/provenance/v0.2',
        predicate: {},
      },
    });
    expect(verifyProvenance(v02, expectation(), roots).ok).toBe(true);
  });

  it('leaves the subject-digest check to checkSubjects when no assets are given', () => {
    const outcome = verifyProvenance(good, expectation({ assets: undefined }), roots);
    expect(outcome).toMatchObject({ ok: true, subjects: new Set([ZIP_SHA, TGZ_SHA]) });
    if (!outcome.ok) return;
    expect(checkSubjects(outcome, [{ name: 'app-linux.zip', sha256: ZIP_SHA.toUpperCase() }])).toBe(outcome);
    expect(checkSubjects(outcome, [{ name: 'x.zip', sha256: 'c'.repeat(64) }])).toMatchObject({ ok: false, check: 'subject-digest' });
  });

  it("takes the signing time from a log entry's inclusion promise, never from an integrated time only an inclusion proof comes with", async () => {
    const subjects = { 'app-linux.zip': ZIP_SHA, 'app-darwin.tgz': TGZ_SHA };
    const withLog = [trustedRootMaterial('with-log', world.trustedRootWithLog)];
    // Nothing signs the integrated time of an entry with just a proof: it may say anything.
    const claimed = new Date('2001-02-03T04:05:06Z');
    const proofOnly = await world.bundle({
      san: githubWorkflowSan('acme/app'),
      subjects,
      logEntry: { integratedTime: claimed, promise: false },
    });
    const outcome = verifyProvenance(proofOnly, expectation(), withLog);
    expect(outcome).toMatchObject({ ok: true, root: 'with-log' });
    if (outcome.ok) expect(outcome.signedAt.getFullYear()).toBeGreaterThan(2020);
  });

  it('refuses what is not a DSSE in-toto bundle', async () => {
    expect(verifyProvenance({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }, expectation(), roots)).toMatchObject({
      ok: false,
      check: 'bundle',
    });
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
    forgeUrl: 'https://github.com',
    repoUrl: 'https://github.com/too-legit/attest',
    workflow: null,
    issuers: expectedIssuers({ type: 'github', webUrl: 'https://github.com', oidcIssuer: GITHUB_ISSUER }),
    assets: [{ name: 'artifact', sha256 }],
    ...overrides,
  });

  it('verifies offline: certificate chain, SCT, Rekor entry, signature, identity and subject', () => {
    expect(verifyProvenance(bundle, real(), [publicGoodTrustedRoot()])).toEqual({
      ok: true,
      root: 'public-good',
      subjects: new Set([sha256]),
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
    expect(
      verifyProvenance(bundle, real({ repoUrl: 'https://github.com/too-legit/attest-evil' }), [publicGoodTrustedRoot()]),
    ).toMatchObject({ ok: false, check: 'certificate-identity' });
    expect(
      verifyProvenance(bundle, real({ assets: [{ name: 'artifact', sha256: 'f'.repeat(64) }] }), [publicGoodTrustedRoot()]),
    ).toMatchObject({ ok: false, check: 'subject-digest' });
    const world = await provenanceWorld();
    expect(verifyProvenance(bundle, real(), [trustedRootMaterial('test', world.trustedRoot)])).toMatchObject({
      ok: false,
      check: 'trusted-root',
    });
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
    const github = subjectAlternativeNamePattern('github', 'https://github.com/');
    expect(github.exec('https://github.com/Acme/App/.github/workflows/r.yml@refs/tags/v1')?.slice(1)).toEqual([
      'Acme/App',
      '.github/workflows/r.yml',
      'refs/tags/v1',
    ]);
    expect(github.test('https://github.com/acme/app/.github/workflows/r.yml@refs/tags/v1@x')).toBe(false);
    expect(github.test('https://github.com/acme/app/sub/.github/workflows/r.yml@refs/tags/v1')).toBe(false);
    expect(github.test('https://github.com.evil/acme/app/.github/workflows/r.yml@refs/tags/v1')).toBe(false);
    const gitlab = subjectAlternativeNamePattern('gitlab', 'https://gitlab.com');
    expect(gitlab.exec('https://gitlab.com/group/sub/project//.gitlab-ci.yml@refs/heads/main')?.slice(1)).toEqual([
      'group/sub/project',
      '.gitlab-ci.yml',
      'refs/heads/main',
    ]);
    expect(gitlab.test('https://gitlab.evil/group/project//.gitlab-ci.yml@refs/heads/main')).toBe(false);
  });

  it('refuses a trusted root without a certificate authority or of another media type', () => {
    expect(() => trustedRootMaterial('x', { mediaType: 'application/json' })).toThrow(TrustedRootError);
    expect(() =>
      trustedRootMaterial('x', { mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', certificateAuthorities: [] }),
    ).toThrow(/no certificate authority/);
  });
});
