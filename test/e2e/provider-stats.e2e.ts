import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

const NULLS = { stars: null, forks: null, watchers: null, lastPushAt: null, homepage: null };

describe.each([
  {
    type: 'github' as const,
    apiPath: '/api/v3',
    route: '/api/v3/repos/acme/:repo',
    document: {
      stargazers_count: 42,
      forks_count: 7,
      subscribers_count: 3,
      pushed_at: '2026-11-01T10:00:00Z',
      homepage: 'https://tool.example',
    },
    stats: { stars: 42, forks: 7, watchers: 3, lastPushAt: Date.UTC(2026, 10, 1, 10), homepage: 'https://tool.example' },
  },
  {
    type: 'gitlab' as const,
    apiPath: '/api/v4',
    route: '/api/v4/projects/:project',
    document: { star_count: 9, forks_count: 1, last_activity_at: '2026-11-01T10:00:00.000Z' },
    stats: { stars: 9, forks: 1, watchers: null, lastPushAt: Date.UTC(2026, 10, 1, 10), homepage: null },
  },
  {
    type: 'gitea' as const,
    apiPath: '/api/v1',
    route: '/api/v1/repos/acme/:repo',
    document: { stars_count: 5, forks_count: 2, watchers_count: 4, updated_at: '2026-11-01T10:00:00Z', website: 'https://gitea.example' },
    stats: { stars: 5, forks: 2, watchers: 4, lastPushAt: Date.UTC(2026, 10, 1, 10), homepage: 'https://gitea.example' },
  },
])('GET /api/plugins/:slug/stats on a $type forge', ({ type, apiPath, route, document, stats }) => {
  let w: PublishWorld;
  let upstreamCalls = 0;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    w = await publishWorld({}, { type, apiPath });
    const token = (await w.tokenFor('stats-author', ['publish:*'])).token;
    for (const slug of ['busy', 'down']) {
      await w
        .push(token, slug, {
          manifest: manifestYaml({ name: slug, version: '1.0.0' }),
          manifestSource: 'plugin.yaml',
          version: '1.0.0',
          assets: [{ name: 'a.zip', url: w.forge.asset(`/acme/${slug}/a.zip`, { size: 10 }) }],
          repoUrl: `${w.forge.url}/acme/${slug}`,
        })
        .expect(201);
    }
    w.forge.route('GET', route, async (_req, res, params) => {
      const name = params.repo ?? params.project;
      if (name.endsWith('down')) {
        res.writeHead(503);
        res.end();
        return;
      }
      upstreamCalls += 1;
      // Held until the test lets go, so every client asks while the one upstream call is running.
      await new Promise<void>((resolve) => (release = resolve));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(document));
    });
  });
  afterAll(() => w?.close());

  it('maps the forge’s repository record, with one upstream call for 50 clients at once, then from the cache', async () => {
    const answers = Array.from({ length: 50 }, () =>
      request(w.app.url)
        .get('/api/plugins/busy/stats')
        .then((r) => r),
    );
    // Let go only once all 50 clients are connected and the one upstream call is waiting.
    const server = w.app.app.getHttpServer() as import('node:http').Server;
    const connections = () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    while (upstreamCalls === 0 || (await connections()) < 50) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    for (const answer of await Promise.all(answers)) expect(answer.body).toEqual(stats);
    expect(upstreamCalls).toBe(1);
    expect((await request(w.app.url).get('/api/plugins/busy/stats').expect(200)).body).toEqual(stats);
    expect(upstreamCalls).toBe(1);
  });

  it('answers nulls when the forge fails, and 404 for an unknown plugin', async () => {
    expect((await request(w.app.url).get('/api/plugins/down/stats').expect(200)).body).toEqual(NULLS);
    await request(w.app.url).get('/api/plugins/nope/stats').expect(404);
  });
});
