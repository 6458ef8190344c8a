/**
 * `registry publish` with trusted publishing: the built binary in a child process, with no
 * REGISTRY_TOKEN, proving itself with a CI OIDC ID token from the fake issuer, the way GitHub
 * Actions (ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN) and GitLab CI (an id_tokens variable) hand it out.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FakeOidcIssuer, githubActionsClaims } from '../support/fake-oidc';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const BIN = join(__dirname, '..', '..', 'bin', 'registry.js');

function registry(cwd: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'publish', ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', REGISTRY_RETRY_DELAY_MS: '20', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code: unknown }).code) : 0, stdout, stderr });
      },
    );
  });
}

describe('registry publish with trusted publishing', () => {
  let issuer: FakeOidcIssuer;
  let w: PublishWorld;
  let dir: string;
  const audiences: string[] = [];

  const writeManifest = (version: string) => writeFileSync(join(dir, '.plugin.yaml'), manifestYaml({ name: 'ci-trusted', version }));
  const asset = (version: string) => `ci-trusted.zip=${w.forge.asset(`/acme/ci-trusted/${version}/ci-trusted.zip`, { size: 512 })}`;
  const claims = (audience: string, fields: Record<string, unknown> = {}) =>
    githubActionsClaims(issuer.url, audience, { repository: 'acme/ci-trusted', ...fields });

  beforeAll(async () => {
    issuer = await new FakeOidcIssuer().start();
    await issuer.newKey('RS256');
    w = await publishWorld({ FETCH_ALLOW_HOSTS: `127.0.0.1:${issuer.port}` }, { oidcIssuer: issuer.url });
    dir = mkdtempSync(join(tmpdir(), 'registry-trusted-'));
    const owner = await w.tokenFor('ci-owner', ['publish:*']);
    writeManifest('1.0.0');
    const first = await registry(
      dir,
      { REGISTRY_TOKEN: owner.token, REGISTRY_URL: w.app.url },
      '--asset',
      asset('1.0.0'),
      '--repo-url',
      `${w.forge.url}/acme/ci-trusted`,
    );
    expect(first.code).toBe(0);
    w.forge.repository('github', 'acme/ci-trusted', { id: 1001 });
    await request(w.app.url)
      .post('/api/plugins/ci-trusted/trusted-publishers')
      .set('Authorization', `Bearer ${owner.jwt}`)
      .send({ forge: 'fakehub', repository: 'acme/ci-trusted', workflow: '.github/workflows/release.yml' })
      .expect(201);
    // GitHub Actions' token endpoint: the request token as bearer, the audience as a query parameter.
    w.forge.route('GET', '/actions/id-token', async (req, res) => {
      const audience = new URL(req.url ?? '/', 'http://x').searchParams.get('audience') ?? '';
      audiences.push(audience);
      if (req.headers.authorization !== 'Bearer request-token') {
        res.writeHead(401);
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ count: 1, value: await issuer.sign(claims(audience)) }));
    });
  });
  afterAll(async () => {
    await w?.close();
    await issuer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const actionsEnv = () => ({
    REGISTRY_URL: w.app.url,
    ACTIONS_ID_TOKEN_REQUEST_URL: `${w.forge.url}/actions/id-token?api-version=2.0`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
  });

  it('publishes from GitHub Actions with no REGISTRY_TOKEN, asking for an ID token whose audience is the registry', async () => {
    writeManifest('1.1.0');
    const run = await registry(dir, actionsEnv(), '--asset', asset('1.1.0'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^published ci-trusted@1\.1\.0\n/);
    expect(audiences).toEqual([w.app.url]);
    const release = await request(w.app.url).get('/api/plugins/ci-trusted/releases/1.1.0').expect(200);
    expect(release.body.publishedBy).toEqual({
      kind: 'trusted',
      forge: 'fakehub',
      repository: 'acme/ci-trusted',
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
    });
  });

  it('publishes from GitLab CI with the ID token in REGISTRY_ID_TOKEN, or in the variable --oidc-token-env names', async () => {
    writeManifest('1.2.0');
    const gitlab = await registry(
      dir,
      { REGISTRY_URL: w.app.url, REGISTRY_ID_TOKEN: await issuer.sign(claims(w.app.url)) },
      '--asset',
      asset('1.2.0'),
    );
    expect(gitlab.code).toBe(0);
    writeManifest('1.3.0');
    const named = await registry(
      dir,
      { REGISTRY_URL: w.app.url, MY_ID_TOKEN: await issuer.sign(claims(w.app.url)) },
      '--asset',
      asset('1.3.0'),
      '--oidc-token-env',
      'MY_ID_TOKEN',
    );
    expect(named.code).toBe(0);
    expect(named.stdout).toMatch(/^published ci-trusted@1\.3\.0\n/);
  });

  it('exits 1 with the refusal explained when no trusted publisher matches, and when the audience is wrong', async () => {
    writeManifest('1.4.0');
    const other = await registry(
      dir,
      {
        REGISTRY_URL: w.app.url,
        REGISTRY_ID_TOKEN: await issuer.sign(
          claims(w.app.url, { job_workflow_ref: 'acme/ci-trusted/.github/workflows/other.yml@refs/heads/x' }),
        ),
      },
      '--asset',
      asset('1.4.0'),
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/trusted publishing refused \(HTTP 403\)/);
    const audience = await registry(dir, actionsEnv(), '--asset', asset('1.4.0'), '--oidc-audience', 'https://elsewhere.example');
    expect(audience.code).toBe(1);
    expect(audience.stderr).toMatch(/trusted publishing refused \(HTTP 401\): the ID token's audience/);
    expect(await request(w.app.url).get('/api/plugins/ci-trusted/releases/1.4.0').expect(404)).toBeTruthy();
  });

  it('shows which ID token a dry run would use, and names both ways when it has neither', async () => {
    const dry = await registry(dir, actionsEnv(), '--asset', asset('9.9.9'), '--dry-run');
    expect(JSON.parse(dry.stdout).authorization).toBe('Bearer [trusted publishing: a GitHub Actions ID token]');
    const neither = await registry(dir, { REGISTRY_URL: w.app.url }, '--asset', asset('9.9.9'));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/REGISTRY_TOKEN.*trusted publishing from GitHub Actions/);
  });
});
