/**
 * The publish workflows the registry hands out (GET /api/ci/templates, GET /cli/ci/<file>) and the
 * ones the account page shows for a new token: one per CI system, with the configured BASE_URL and
 * the SHA-256 of the CLI bytes GET /cli/registry.js serves pinned in them, downloaded in a job that
 * holds no secret and no OIDC permission, and the build kept out of the job that holds the
 * credential. Needs `npm run build` (the single-file CLI).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import request from 'supertest';
import { parse } from 'yaml';
import { CLI_BUNDLE_FILE } from '../../src/publishing/cli-download/cli-download.service';
import type { CiForge } from '../../src/publishing/cli-download/ci-templates/template-values';
import { credentialsOf, repositoryCodeIn, workflowJobs } from '../../src/publishing/cli-download/ci-templates/testing/workflow-jobs';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const BASE_URL = 'https://plugins.example.test';
const FORGES = ['github', 'gitlab', 'forgejo'];

type Yaml = Record<string, unknown> & { jobs?: Record<string, Record<string, unknown>> };

interface Template {
  forge: string;
  file: string;
  auth: string;
  content: string;
}

/** The bytes GET /cli/registry.js serves, hashed as a CI job would hash them. */
async function servedSha256(app: TestApp): Promise<string> {
  const response = await request(app.url)
    .get('/cli/registry.js')
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);
  return createHash('sha256')
    .update(response.body as Buffer)
    .digest('hex');
}

/** The jobs that download the CLI and the ones that publish, by forge; the text of a job as YAML. */
function jobsOf(forge: string, document: Yaml): { fetcher: Record<string, unknown>; publisher: Record<string, unknown> } {
  if (forge === 'gitlab')
    return { fetcher: document['registry-cli'] as Record<string, unknown>, publisher: document.publish as Record<string, unknown> };
  return { fetcher: document.jobs!['registry-cli'], publisher: document.jobs!.publish };
}

describe('CI templates with the CLI pinned', () => {
  let app: TestApp;
  let sha256: string;

  beforeAll(async () => {
    if (!existsSync(CLI_BUNDLE_FILE)) throw new Error(`${CLI_BUNDLE_FILE} is missing: run \`npm run build\` first`);
    app = await startTestApp({ BASE_URL, OIDC_AUDIENCE: 'registry-audience' });
    sha256 = await servedSha256(app);
  }, 120_000);
  afterAll(() => app?.close());

  it('offers one template per CI system, each valid YAML with BASE_URL and the served CLI SHA-256 pinned', async () => {
    for (const auth of ['trusted', 'token']) {
      const answer = await request(app.url).get(`/api/ci/templates?auth=${auth}`).expect(200);
      expect(answer.body.cliSha256).toBe(sha256);
      const templates = answer.body.templates as Template[];
      expect(templates.map((t) => t.forge)).toEqual(FORGES);
      for (const template of templates) {
        const document = parse(template.content, { uniqueKeys: true }) as Yaml;
        const globals = (template.forge === 'gitlab' ? document.variables : document.env) as Record<string, string>;
        expect([template.forge, globals]).toEqual([template.forge, { REGISTRY_URL: BASE_URL, REGISTRY_CLI_SHA256: sha256 }]);
        expect(template.content).not.toContain('localhost');
        const { fetcher, publisher } = jobsOf(template.forge, document);
        const fetcherText = JSON.stringify(fetcher);
        // The job that runs the download holds no secret and no OIDC permission...
        expect(fetcherText).not.toMatch(/secrets\.|id-token|id_tokens|environment|REGISTRY_TOKEN/);
        expect(fetcherText).toContain('/cli/registry.js');
        expect(fetcherText).toContain('echo \\"$REGISTRY_CLI_SHA256  registry.js\\" | sha256sum -c -');
        if (template.forge !== 'forgejo') expect(fetcher.permissions ?? {}).toEqual({});
        // ...and the publish job takes the checked file from it, checks it again and never downloads it.
        expect(publisher.needs).toEqual(['build', 'registry-cli']);
        const publisherText = JSON.stringify(publisher);
        expect(publisherText).not.toContain('/cli/registry.js"');
        expect(publisherText).toMatch(/echo \\"\$REGISTRY_CLI_SHA256 {2}(registry-cli\/)?registry\.js\\" \| sha256sum -c -/);
        const trusted = template.auth === 'trusted';
        expect(template.auth).toBe(template.forge === 'forgejo' ? 'token' : auth);
        expect(publisherText.includes('secrets.REGISTRY_TOKEN')).toBe(!trusted && template.forge !== 'gitlab');
        expect(publisherText.includes('id-token') || publisherText.includes('id_tokens')).toBe(trusted);
        if (template.forge === 'gitlab' && trusted)
          expect(publisher.id_tokens).toEqual({ REGISTRY_ID_TOKEN: { aud: 'registry-audience' } });
        if (template.forge === 'github') expect(publisherText.includes("--oidc-audience 'registry-audience'")).toBe(trusted);
        // Only the publish job reaches a credential, and it runs no npm, no build and no checkout.
        const { jobs } = workflowJobs(template.forge as CiForge, template.content);
        expect([template.forge, jobs.filter((job) => credentialsOf(job).length > 0).map((job) => job.name)]).toEqual([
          template.forge,
          ['publish'],
        ]);
        expect([
          template.forge,
          repositoryCodeIn(
            template.forge as CiForge,
            jobs.find((job) => job.name === 'publish')!,
          ),
        ]).toEqual([template.forge, []]);
      }
    }
  });

  it('serves each as a YAML file, the same as in the list, and refuses a bad auth or an unknown file', async () => {
    const { body } = await request(app.url).get('/api/ci/templates?auth=token').expect(200);
    for (const template of body.templates as Template[]) {
      const file = await request(app.url).get(`/cli/ci/${template.file}?auth=token`).expect(200);
      expect(file.headers['content-type']).toBe('application/yaml; charset=utf-8');
      expect(file.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
      expect(file.text).toBe(template.content);
    }
    const trusted = await request(app.url).get('/cli/ci/github-actions.yml').expect(200);
    expect(trusted.text).toContain('id-token: write');
    const bad = await request(app.url).get('/api/ci/templates?auth=admin').expect(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(JSON.stringify(bad.body)).toContain('auth');
    await request(app.url).get('/cli/ci/other.yml').expect(404);
  });

  it("shows a new token's owner the workflow for each forge, with BASE_URL and the pin", async () => {
    const { jwt } = await userWithSession(app, 'ci-snippets');
    const page = await request(app.url).get('/account').set('Cookie', `registry_session=${jwt}`).expect(200);
    const snippets = [...page.text.matchAll(/<pre id="ci-snippet-([a-z]+)"[^>]*>([\s\S]*?)<\/pre>/g)];
    expect(snippets.map(([, forge]) => forge)).toEqual(FORGES);
    for (const [, forge, escaped] of snippets) {
      const content = escaped
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      const document = parse(content) as Yaml;
      const globals = (forge === 'gitlab' ? document.variables : document.env) as Record<string, string>;
      expect(globals).toEqual({ REGISTRY_URL: BASE_URL, REGISTRY_CLI_SHA256: sha256 });
      expect(content).not.toContain('localhost');
      expect(content).not.toMatch(/id-token: write|id_tokens/);
      expect(page.text).toContain(`data-copy="#ci-snippet-${forge}"`);
    }
  });
});
