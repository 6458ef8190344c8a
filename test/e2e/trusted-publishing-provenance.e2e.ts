import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { assetChunks } from '../support/fake-forge';
import { FakeOidcIssuer, githubActionsClaims } from '../support/fake-oidc';
import { provenanceWorld, type ProvenanceWorld } from '../support/provenance-world';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const ASSET = { size: 640, seed: 5 };

/**
 * A trusted publisher's push with a Sigstore bundle
 * (docs/publishing-from-ci.md#build-provenance-sigstore-bundles): the bundle must be signed by the
 * workflow the OIDC token was minted for, not merely by some workflow of the repository.
 */
describe('trusted publishing with build provenance', () => {
  let issuer: FakeOidcIssuer;
  let sigstore: ProvenanceWorld;
  let dir: string;
  let w: PublishWorld;
  let trustedToken: string;
  let aliceJwt: string;

  const sha256 = () =>
    createHash('sha256')
      .update(Buffer.concat([...assetChunks(ASSET)]))
      .digest('hex');
  const san = (workflow: string) => `${w.forge.url}/acme/tool/${workflow}@refs/tags/v1.0.0`;
  const body = (version: string, attestation: unknown) => ({
    manifest: manifestYaml({ name: 'tool', version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: 'tool.zip', url: w.forge.asset(`/acme/tool/releases/tool-${version}.zip`, ASSET) }],
    attestation,
  });
  const counts = async () =>
    (
      await w.app.database.dataSource.query(
        `SELECT (SELECT count(*) FROM release)::int AS releases, (SELECT count(*) FROM plugin)::int AS plugins`,
      )
    )[0];

  beforeAll(async () => {
    issuer = await new FakeOidcIssuer().start();
    await issuer.newKey('RS256');
    sigstore = await provenanceWorld();
    dir = mkdtempSync(join(tmpdir(), 'prov-trusted-'));
    writeFileSync(join(dir, 'root.json'), JSON.stringify(sigstore.trustedRoot));
    w = await publishWorld(
      { FETCH_ALLOW_HOSTS: `127.0.0.1:${issuer.port}`, PROVENANCE_TRUSTED_ROOTS: join(dir, 'root.json') },
      { oidcIssuer: issuer.url },
    );
    w.forge.repository('github', 'acme/tool', { id: 1001 });
    const alice = await w.tokenFor('alice', ['publish:*']);
    aliceJwt = alice.jwt;
    await w.push(alice.token, 'tool', { ...body('1.0.0', null), repoUrl: `${w.forge.url}/acme/tool` }).expect(201);
    await request(w.app.url)
      .post('/api/plugins/tool/trusted-publishers')
      .set('Authorization', `Bearer ${alice.jwt}`)
      .send({ forge: 'fakehub', repository: 'acme/tool', workflow: '.github/workflows/release.yml' })
      .expect(201);
    const exchanged = await request(w.app.url)
      .post('/api/publish/oidc/token')
      .send({ token: await issuer.sign(githubActionsClaims(issuer.url, w.app.config.baseUrl)) })
      .expect(201);
    trustedToken = exchanged.body.token;
  });
  afterAll(async () => {
    await w?.close();
    await issuer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a bundle from another workflow of the same repository (422 certificate-workflow, audited, nothing written)', async () => {
    const bundle = await sigstore.bundle({ san: san('.github/workflows/nightly.yml'), subjects: { 'tool.zip': sha256() } });
    const before = await counts();
    const res = await w.push(trustedToken, 'tool', body('1.1.0', bundle)).expect(422);
    expect(res.body).toMatchObject({ type: expect.stringMatching(/\/problems\/provenance-invalid$/), check: 'certificate-workflow' });
    expect(res.body.errors[0].message).toContain('.github/workflows/release.yml');
    expect(await counts()).toEqual(before);
    expect(await w.audit('plugin.publish_invalid')).toContainEqual(
      expect.objectContaining({ slug: 'tool', details: expect.objectContaining({ check: 'certificate-workflow' }) }),
    );
  });

  it("publishes through a reusable workflow of another repository when the bundle was built from the plugin's repository", async () => {
    const shared = 'acme/shared/.github/workflows/build.yml';
    await request(w.app.url)
      .post('/api/plugins/tool/trusted-publishers')
      .set('Authorization', `Bearer ${aliceJwt}`)
      .send({ forge: 'fakehub', repository: 'acme/tool', workflow: shared })
      .expect(201);
    const claims = githubActionsClaims(issuer.url, w.app.config.baseUrl, { job_workflow_ref: `${shared}@refs/heads/main` });
    const token = (
      await request(w.app.url)
        .post('/api/publish/oidc/token')
        .send({ token: await issuer.sign(claims) })
        .expect(201)
    ).body.token as string;
    // Fulcio's word for the same job: the SAN names the called workflow, 1.12 the calling repository.
    const sharedSan = `${w.forge.url}/${shared}@refs/heads/main`;
    const bundle = (sourceRepository: string) =>
      sigstore.bundle({ san: sharedSan, subjects: { 'tool.zip': sha256() }, issuer: issuer.url, sourceRepository });
    const before = await counts();
    const foreign = await w.push(token, 'tool', body('1.2.0', await bundle(`${w.forge.url}/acme/shared`))).expect(422);
    expect(foreign.body).toMatchObject({ check: 'certificate-identity' });
    expect(await counts()).toEqual(before);
    await w.push(token, 'tool', body('1.2.0', await bundle(`${w.forge.url}/acme/tool`))).expect(201);
    const release = (await request(w.app.url).get('/api/plugins/tool/releases/1.2.0').expect(200)).body;
    expect(release.provenance).toMatchObject({
      status: 'verified',
      repository: `${w.forge.url}/acme/tool`,
      workflow: shared,
      ref: 'refs/heads/main',
      issuer: issuer.url,
    });
  });

  it("publishes with a bundle from the trusted publisher's workflow, recording that workflow", async () => {
    const bundle = await sigstore.bundle({ san: san('.github/workflows/release.yml'), subjects: { 'tool.zip': sha256() } });
    await w.push(trustedToken, 'tool', body('1.1.0', bundle)).expect(201);
    const release = (await request(w.app.url).get('/api/plugins/tool/releases/1.1.0').expect(200)).body;
    expect(release.publishedBy).toMatchObject({ kind: 'trusted', workflow: '.github/workflows/release.yml' });
    expect(release.provenance).toMatchObject({
      status: 'verified',
      repository: `${w.forge.url}/acme/tool`,
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
    });
  });
});
