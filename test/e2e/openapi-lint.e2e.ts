import { execFile } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer?: string;
}

const LINT = join(__dirname, '..', 'support', 'openapi-lint.mjs');

/** Redocly's recommended rules over a document, in a child process (the linter is an ES module). */
function lint(document: unknown): Promise<LintProblem[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [LINT], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`openapi-lint failed: ${stderr || error.message}`));
      resolve((JSON.parse(stdout) as { problems: LintProblem[] }).problems);
    });
    child.stdin!.end(JSON.stringify(document));
  });
}

const show = (problems: LintProblem[]) => problems.map((p) => `${p.severity} ${p.ruleId} at ${p.pointer}: ${p.message}`).join('\n');

type Operations = Record<string, Record<string, { summary?: string; security?: unknown[]; responses: Record<string, unknown> }>>;

describe('the OpenAPI document under Redocly recommended rules', () => {
  let app: TestApp;
  let document: { paths: Operations };

  beforeAll(async () => {
    app = await startTestApp();
    document = (await request(app.url).get('/openapi/json').expect(200)).body;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has no errors and no warnings (a redirect-only operation has no 2xx to show)', async () => {
    const problems = await lint(document);
    if (problems.length > 0) console.log(`Redocly recommended over /openapi/json:\n${show(problems)}`);
    expect(show(problems.filter((p) => p.severity === 'error'))).toBe('');
    // A redirect is the whole answer of a download or a sign-in start; every other warning counts.
    const redirectOnly = (pointer = '') => {
      const match = /^#\/paths\/([^/]+)\/([a-z]+)\/responses$/.exec(pointer);
      if (!match) return false;
      const responses = document.paths[match[1].replace(/~1/g, '/').replace(/~0/g, '~')][match[2]].responses;
      return Object.keys(responses).some((status) => /^3/.test(status));
    };
    const warnings = problems.filter((p) => p.severity === 'warn' && !(p.ruleId === 'operation-2xx-response' && redirectOnly(p.pointer)));
    expect(show(warnings)).toBe('');
  });

  it('declares public operations with security: [] and errors as problem+json', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(50);
    const catalogue = document.paths['/api/plugins'].get;
    expect(catalogue.security).toEqual([]);
    // Optional credentials: anonymous ({}) or a session.
    expect(document.paths['/api/plugins/{slug}'].get.security).toEqual([{}, { bearer: [] }, { cookie: [] }]);
    expect(document.paths['/api/auth/me/tokens'].get.security).toEqual([{ bearer: [] }, { cookie: [] }]);
    expect(catalogue.responses['400']).toEqual({
      description: expect.any(String),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' } } },
    });
  });

  it('names the allow-list subscriptions read (SUBSCRIPTION_ALLOW_HOSTS), never the one they ignore (FETCH_ALLOW_HOSTS)', () => {
    const schemas = (
      document as unknown as { components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> } }
    ).components.schemas;
    expect(schemas.CreateSubscriptionDto.properties!.url.description).toContain('SUBSCRIPTION_ALLOW_HOSTS');
    const subscriptionParts = [
      ...Object.entries(document.paths).filter(([path]) => path.startsWith('/api/account/subscriptions')),
      ...Object.entries(schemas).filter(([name]) => /Subscription/.test(name)),
    ];
    expect(subscriptionParts.length).toBeGreaterThan(6);
    for (const [name, part] of subscriptionParts) expect(`${name}: ${JSON.stringify(part)}`).not.toContain('FETCH_ALLOW_HOSTS');
  });

  it('fails a document that lacks a summary, a security declaration or a 4xx response', async () => {
    const broken = structuredClone(document);
    const operation = broken.paths['/api/plugins'].get;
    delete operation.summary;
    delete operation.security;
    for (const status of Object.keys(operation.responses)) if (/^4/.test(status)) delete operation.responses[status];
    const rules = (await lint(broken)).filter((p) => p.pointer?.startsWith('#/paths/~1api~1plugins/get')).map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['operation-summary', 'security-defined', 'operation-4xx-response']));
  });
});
