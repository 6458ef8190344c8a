/**
 * What a newcomer meets first: errors that say what to do, a page at `/`, problem types that
 * resolve, and an API description that works from any host name.
 */
import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('the first minutes', () => {
  let app: TestApp;
  let jwt: string;
  const createToken = () => request(app.url).post('/api/auth/me/tokens').set('Authorization', `Bearer ${jwt}`);

  beforeAll(async () => {
    app = await startTestApp();
    jwt = (await userWithSession(app, 'newcomer')).jwt;
  });
  afterAll(() => app?.close());

  describe('request validation says one thing per field', () => {
    it('reports each bad array item at its own pointer', async () => {
      const res = await createToken()
        .send({ name: 'ci', scopes: ['publish:*', 'write:x', 'yank:Bad'] })
        .expect(400);
      expect(res.body.errors).toEqual([
        { path: '/scopes/1', message: 'scopes/1: unknown action "write"; expected one of publish, yank, manage-owners' },
        { path: '/scopes/2', message: expect.stringMatching(/^scopes\/2: target "Bad" must be \* or a plugin slug/) },
      ]);
    });

    it('says a wrong type once, without rules that cannot apply', async () => {
      const res = await createToken().send({ name: 'ci', scopes: 'publish:*' }).expect(400);
      expect(res.body.errors).toEqual([{ path: '/scopes', message: 'scopes: must be an array' }]);
    });

    it('counts in plain English', async () => {
      const res = await createToken().send({ name: 'ci', scopes: [] }).expect(400);
      expect(res.body.errors).toEqual([{ path: '/scopes', message: 'scopes: must have at least 1 element' }]);
    });

    it('says a missing field is required, once', async () => {
      const res = await createToken().send({}).expect(400);
      expect(res.body.errors).toEqual([
        { path: '/name', message: 'name: is required' },
        { path: '/scopes', message: 'scopes: is required' },
      ]);
    });

    it('names an unknown field', async () => {
      const res = await createToken()
        .send({ name: 'ci', scopes: ['publish:*'], scope: 'x' })
        .expect(400);
      expect(res.body.errors).toEqual([{ path: '/scope', message: 'scope: is not a known field' }]);
    });

    it('states the limit of a length rule', async () => {
      const res = await createToken()
        .send({ name: 'x'.repeat(101), scopes: ['publish:*'] })
        .expect(400);
      expect(res.body.errors).toEqual([{ path: '/name', message: 'name: must be 1 to 100 characters long' }]);
    });
  });

  describe('bodies that are not JSON', () => {
    it.each([
      ['text/plain', '{"name":"ci","scopes":["publish:*"]}'],
      ['application/x-www-form-urlencoded', 'name=ci'],
    ])('answers one 415 for a %s body, saying what to send', async (type, body) => {
      const res = await createToken().set('Content-Type', type).send(body).expect(415);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 415, detail: 'the request body must be JSON: send it with Content-Type: application/json' });
      expect(res.body.errors).toBeUndefined();
    });

    it('answers 413 stating the limit', async () => {
      const res = await createToken()
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(1_100_000) }))
        .expect(413);
      expect(res.body.detail).toBe('the request body is larger than the 64 KiB limit');
    });
  });

  it('serves the web front end at / that links the API reference, the key set and health', async () => {
    const res = await request(app.url).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const link of ['/openapi', '/.well-known/registry-key.json', '/health/ready']) expect(res.text).toContain(`href="${link}"`);
    // Scripts only from files: the page works before (and without) them.
    expect(res.text).not.toMatch(/<script(?![^>]*\b(src=|type="application\/json"))/);
  });

  it('resolves the type of a problem it answers with, and 404s an unknown type', async () => {
    const problem = (await createToken().send({}).expect(400)).body;
    expect(problem.type).toBe(`${app.url}/problems/validation-failed`);
    const page = await request(problem.type).get('').expect(200);
    expect(page.body).toMatchObject({ code: 'validation-failed', status: 400, description: expect.stringContaining('JSON pointer') });
    await request(app.url).get('/problems/no-such-problem').expect(404);
  });

  it('describes the API with a relative server, so "Try it out" works from any host name', async () => {
    const doc = (await request(app.url).get('/openapi/json').expect(200)).body;
    expect(doc.servers).toEqual([{ url: '/' }]);
  });

  it('refuses a wizard baseUrl, saying where the base URL is configured', async () => {
    const res = await request(app.url)
      .put('/api/init/settings')
      .set('Authorization', 'Bearer x')
      .send({ baseUrl: 'https://x.test' })
      .expect(400);
    expect(res.body.errors).toEqual([
      { path: '/baseUrl', message: 'baseUrl: is configured with the BASE_URL environment variable, not in the wizard' },
    ]);
  });
});
