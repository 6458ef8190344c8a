/**
 * One spelling per path (docs/api-conventions.md#http-conventions): Express matched routes without
 * regard to case, so `/API/PUBLISH/x` reached publish past the rate limiter, the response cache's
 * invalidation and the Redis fail-closed rule, which all compare paths exactly. Routing is
 * case-sensitive now: any other spelling of a route is a 404 that reaches no handler and writes
 * nothing.
 */
import request from 'supertest';
import { publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

describe('routes in another letter case', () => {
  let world: PublishWorld;

  beforeAll(async () => {
    world = await publishWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('a push to /API/PUBLISH/<slug> with a good token reaches nothing and writes nothing', async () => {
    const { token } = await world.tokenFor('case-author', ['publish:*']);
    const body = {
      manifest: 'name: cased\nversion: "1.0.0"\n',
      manifestSource: 'plugin.yaml',
      version: '1.0.0',
      assets: [{ name: 'cased.zip', url: `${world.forge.url}/assets/cased.zip` }],
      repoUrl: 'https://example.invalid/acme/cased',
    };
    for (const path of ['/API/PUBLISH/cased', '/Api/Publish/cased', '/api/PUBLISH/cased']) {
      const res = await request(world.app.url).post(path).set('Authorization', `Bearer ${token}`).send(body);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({
        path,
        status: 404,
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
    expect(await world.count('plugin')).toBe(0);
    expect(await world.audit()).toEqual([]);
  });

  it('every limited or guarded route family answers 404 in another case', async () => {
    const admin = await userWithSession(world.app, 'case-admin', 'admin');
    const attempts: [string, string][] = [
      ['GET', '/API/PLUGINS'],
      ['GET', '/api/Plugins'],
      ['POST', '/API/WEBHOOKS/RELEASE'],
      ['POST', '/Api/Init/Admin'],
      ['GET', '/AUTH/fakehub/login'],
      ['PATCH', '/API/ADMIN/SETTINGS'],
      ['POST', '/API/AUTH/ME/TOKENS'],
      ['GET', '/.WELL-KNOWN/registry-key.json'],
    ];
    for (const [method, path] of attempts) {
      const verb = method.toLowerCase() as 'get' | 'post' | 'patch';
      const res = await request(world.app.url)
        [verb](path)
        .set('Authorization', `Bearer ${admin.jwt}`)
        .set('Content-Type', 'application/json')
        .send(method === 'GET' ? undefined : '{"name":"x","scopes":["publish:*"],"ratelimit.public_read_per_min":1}');
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    const settings = await request(world.app.url).get('/api/admin/settings').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    expect(settings.body['ratelimit.public_read_per_min']).not.toBe(1);
    const tokens = await request(world.app.url).get('/api/auth/me/tokens').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    expect(tokens.body.tokens).toEqual([]);
  });
});
