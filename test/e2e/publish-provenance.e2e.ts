import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { assetSha256 } from '../support/fake-forge';
import { provenanceWorld, type ProvenanceWorld } from '../support/provenance-world';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const LINUX = { size: 4_000, seed: 7 };
const ZIP = { size: 2_000, seed: 8 };

describe('POST /api/publish/:slug with a Sigstore provenance bundle', () => {
  let w: PublishWorld;
  let sigstore: ProvenanceWorld;
  let stranger: ProvenanceWorld;
  // Listed in a root with its transparency log: every bundle must then carry a log entry.
  let withLog: ProvenanceWorld;
  let dir: string;
  let alice: { token: string };
  let admin: string;

  const repoUrl = (slug: string) => `${w.forge.url}/acme/${slug}`;
  const san = (slug: string, repo = `acme/${slug}`) => `${w.forge.url}/${repo}/.github/workflows/release.yml@refs/tags/v1.0.0`;
  const subjects = (slug: string) => ({ [`${slug}-linux-x64.tar.gz`]: assetSha256(LINUX), [`${slug}.zip`]: assetSha256(ZIP) });
  const body = (slug: string, attestation: unknown, manifest: Record<string, unknown> = {}) => ({
    manifest: manifestYaml({ name: slug, version: '1.0.0', description: 'A plugin with provenance', ...manifest }),
    manifestSource: 'plugin.yaml',
    version: 'v1.0.0',
    assets: [
      { name: `${slug}-linux-x64.tar.gz`, url: w.forge.asset(`/acme/${slug}/releases/download/v1.0.0/${slug}-linux-x64.tar.gz`, LINUX) },
      { name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/releases/download/v1.0.0/${slug}.zip`, ZIP) },
    ],
    repoUrl: repoUrl(slug),
    ...(attestation === undefined ? {} : { attestation }),
  });
  const snapshot = async () => ({
    plugin: await w.count('plugin'),
    release: await w.count('release'),
    owner: await w.count('plugin_owner'),
  });

  beforeAll(async () => {
    sigstore = await provenanceWorld();
    stranger = await provenanceWorld();
    withLog = await provenanceWorld();
    dir = mkdtempSync(join(tmpdir(), 'prov-roots-'));
    const rootFile = join(dir, 'trusted_root.json');
    writeFileSync(rootFile, JSON.stringify(sigstore.trustedRoot));
    writeFileSync(join(dir, 'logged.json'), JSON.stringify(withLog.trustedRootWithLog));
    w = await publishWorld({ PROVENANCE_TRUSTED_ROOTS: `${rootFile},${join(dir, 'logged.json')}` });
    alice = await w.tokenFor('prov-alice', ['publish:*']);
    admin = (await userWithSession(w.app, 'prov-root', 'admin')).jwt;
  });
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies the bundle, records the signer outside the signed list and shows it in the release detail (201)', async () => {
    const bundle = await sigstore.bundle({ san: san('built'), subjects: subjects('built') });
    await w.push(alice.token, 'built', body('built', bundle)).expect(201);
    const release = (await request(w.app.url).get('/api/plugins/built/releases/1.0.0').expect(200)).body;
    expect(release.provenance).toEqual({
      status: 'verified',
      repository: repoUrl('built'),
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
      issuer: 'https://token.actions.githubusercontent.com',
      signedAt: expect.any(Number),
    });
    // The signed list carries the attestation exactly as given.
    expect(release.integrity.assets.map((a: { attestation: unknown }) => a.attestation)).toEqual([bundle, bundle]);
    const [row] = await w.app.database.dataSource.query(
      `SELECT r.provenance_status, r.provenance_repository, r.provenance_signed_at FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = 'built'`,
    );
    expect(row).toMatchObject({ provenance_status: 'verified', provenance_repository: repoUrl('built') });
    expect(row.provenance_signed_at).toBeInstanceOf(Date);
    const [entry] = (await w.audit('plugin.publish')).filter((a) => a.slug === 'built');
    expect(entry.details.provenance).toBe('verified');
  });

  it('records a release without an attestation as absent', async () => {
    await w.push(alice.token, 'plain', body('plain', undefined)).expect(201);
    expect((await request(w.app.url).get('/api/plugins/plain/releases/1.0.0').expect(200)).body.provenance).toMatchObject({
      status: 'absent',
      repository: null,
    });
  });

  const refusals: [string, string, (slug: string) => Promise<unknown>][] = [
    [
      'a statement without one asset digest',
      'subject-digest',
      (slug) => sigstore.bundle({ san: san(slug), subjects: { [`${slug}.zip`]: assetSha256(ZIP) } }),
    ],
    [
      'a certificate for another repository',
      'certificate-identity',
      (slug) => sigstore.bundle({ san: san(slug, `acme/${slug}-evil`), subjects: subjects(slug) }),
    ],
    [
      'a certificate and timestamp from a Sigstore nobody configured',
      'trusted-root',
      (slug) => stranger.bundle({ san: san(slug), subjects: subjects(slug) }),
    ],
    [
      'a root with a transparency log and a bundle without a log entry',
      'tlog',
      (slug) => withLog.bundle({ san: san(slug), subjects: subjects(slug) }),
    ],
    [
      'a statement that is not SLSA provenance',
      'statement',
      (slug) =>
        sigstore.bundle({
          san: san(slug),
          subjects: {},
          statement: {
            _type: 'https://in-toto.io/Statement/v1',
            subject: Object.entries(subjects(slug)).map(([name, sha256]) => ({ name, digest: { sha256 } })),
            predicateType: 'https://spdx.dev/Document',
            predicate: {},
          },
        }),
    ],
    [
      'a certificate issued on the word of another issuer',
      'certificate-identity',
      (slug) => sigstore.bundle({ san: san(slug), subjects: subjects(slug), issuer: 'https://gitlab.com' }),
    ],
    [
      'a tampered payload',
      'signature',
      async (slug) => {
        const bundle = (await sigstore.bundle({ san: san(slug), subjects: subjects(slug) })) as { dsseEnvelope: { payload: string } };
        const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString()) as Record<string, unknown>;
        return {
          ...bundle,
          dsseEnvelope: {
            ...bundle.dsseEnvelope,
            payload: Buffer.from(JSON.stringify({ ...statement, predicate: {} })).toString('base64'),
          },
        };
      },
    ],
    [
      'a bundle that is not one',
      'bundle',
      async () => ({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', dsseEnvelope: { payload: 'e30=' } }),
    ],
  ];

  it.each(refusals)('refuses %s: 422 naming the check, audited, nothing written', async (_, check, make) => {
    const slug = `refused-${check}`;
    const attestation = await make(slug);
    const before = await snapshot();
    const res = await w.push(alice.token, slug, body(slug, attestation)).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: expect.stringMatching(/\/problems\/provenance-invalid$/), status: 422, check });
    expect(res.body.errors).toEqual([{ path: '/attestation', message: expect.stringMatching(new RegExp(`^provenance: ${check}: `)) }]);
    expect(await snapshot()).toEqual(before);
    expect(await w.audit('plugin.publish_invalid')).toContainEqual(
      expect.objectContaining({ slug, details: expect.objectContaining({ code: 'provenance-invalid', check, version: 'v1.0.0' }) }),
    );
    // Only the subject-digest check needs the assets: every other refusal comes before any download.
    const downloads = [
      `/acme/${slug}/releases/download/v1.0.0/${slug}-linux-x64.tar.gz`,
      `/acme/${slug}/releases/download/v1.0.0/${slug}.zip`,
    ].map((path) => w.forge.hits(path));
    expect(downloads).toEqual(check === 'subject-digest' ? [1, 1] : [0, 0]);
  });

  it("names an operator's trusted root by a label, never by its file path (problem and audit entry)", async () => {
    const slug = 'refused-label';
    const bundle = (await sigstore.bundle({ san: san(slug), subjects: subjects(slug) })) as { dsseEnvelope: { payload: string } };
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString()) as Record<string, unknown>;
    // A tampered payload fails at our own root, past its timestamp: the message names that root.
    const broken = {
      ...bundle,
      dsseEnvelope: { ...bundle.dsseEnvelope, payload: Buffer.from(JSON.stringify({ ...statement, predicate: {} })).toString('base64') },
    };
    const res = await w.push(alice.token, slug, body(slug, broken)).expect(422);
    expect(res.body.errors[0].message).toContain('operator root #1 (trusted_root.json)');
    const audited = (await w.audit('plugin.publish_invalid')).filter((a) => a.slug === slug);
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(res.body)).not.toContain(dir);
    expect(JSON.stringify(audited)).not.toContain(dir);
  });

  describe('a kind that requires provenance', () => {
    beforeAll(async () => {
      await request(w.app.url)
        .post('/api/admin/kinds')
        .set('Authorization', `Bearer ${admin}`)
        .send({ key: 'signed-theme', label: 'Signed themes', requireProvenance: true })
        .expect(201);
    });

    it('is set and read through the admin API', async () => {
      const kinds = (await request(w.app.url).get('/api/admin/kinds').set('Authorization', `Bearer ${admin}`).expect(200)).body.kinds;
      expect(kinds).toContainEqual(expect.objectContaining({ key: 'signed-theme', requireProvenance: true }));
      const edited = await request(w.app.url)
        .put('/api/admin/kinds/signed-theme')
        .set('Authorization', `Bearer ${admin}`)
        .send({ label: 'Signed themes!' })
        .expect(200);
      expect(edited.body.requireProvenance).toBe(true);
    });

    it.each([
      ['no attestation', undefined],
      ['an attestation that is not a Sigstore bundle', { predicateType: 'https://slsa.dev/provenance/v1' }],
    ])('refuses a release with %s (422 provenance-required, audited, nothing written)', async (label, attestation) => {
      const slug = `unproven-${label.length}`;
      const before = await snapshot();
      const res = await w.push(alice.token, slug, body(slug, attestation, { kind: 'signed-theme' })).expect(422);
      expect(res.body).toMatchObject({
        type: expect.stringMatching(/\/problems\/provenance-required$/),
        check: 'required',
        errors: [{ path: '/attestation', message: expect.stringContaining('signed-theme') }],
      });
      expect(await snapshot()).toEqual(before);
      expect(await w.audit('plugin.publish_invalid')).toContainEqual(
        expect.objectContaining({ slug, details: expect.objectContaining({ code: 'provenance-required' }) }),
      );
      expect(w.forge.hits(`/acme/${slug}/releases/download/v1.0.0/${slug}.zip`)).toBe(0);
    });

    it('publishes a release of that kind with a bundle that verifies', async () => {
      const bundle = await sigstore.bundle({ san: san('proven'), subjects: subjects('proven') });
      await w.push(alice.token, 'proven', body('proven', bundle, { kind: 'signed-theme' })).expect(201);
      expect((await request(w.app.url).get('/api/plugins/proven/releases/1.0.0').expect(200)).body.provenance.status).toBe('verified');
    });

    it('passes another attestation through as unverified where the kind does not require provenance', async () => {
      const attestation = { predicateType: 'https://slsa.dev/provenance/v1' };
      await w.push(alice.token, 'loose', body('loose', attestation)).expect(201);
      expect((await request(w.app.url).get('/api/plugins/loose/releases/1.0.0').expect(200)).body.provenance.status).toBe('unverified');
    });
  });
});
