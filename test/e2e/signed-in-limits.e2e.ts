/**
 * Limits on signed-in actions: wishlist requests and votes and repository submissions are counted
 * per user (settings ratelimit.wishlist_request_per_hour, ratelimit.wishlist_vote_per_min,
 * ratelimit.submit_per_hour), and a plugin's reconcile has a cooldown (ratelimit.reconcile_cooldown_s)
 * shared by its owners and the admins. Past them: 429 problem+json with Retry-After, and nothing
 * done. Each app's clock is frozen (and moved by the test), so no window boundary falls inside a test.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { linkedUserWithSession, userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookWorld } from '../support/webhook-world';

/** The app's clock, stopped at a fixed time; `advance` moves it. */
function controlClock(app: TestApp): { advance(ms: number): void } {
  let now = Date.now();
  jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  return { advance: (ms) => (now += ms) };
}

function expectTooManyRequests(res: request.Response, baseUrl: string, maxRetryAfter: number): void {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 429, type: `${baseUrl}/problems/rate-limited` });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= maxRetryAfter).toBe(true);
  expect(res.body.retryAfter).toBe(retryAfter);
}

describe('wishlist limits per user', () => {
  let app: TestApp;
  let admin: string;
  const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const count = async (sql: string) => Number((await app.database.dataSource.query(`SELECT count(*)::int AS n FROM ${sql}`))[0].n);

  beforeAll(async () => {
    app = await startTestApp();
    controlClock(app);
    admin = (await userWithSession(app, 'limits-admin', 'admin')).jwt;
    await request(app.url)
      .patch('/api/admin/settings')
      .set(bearer(admin))
      .send({ 'ratelimit.wishlist_request_per_hour': 2, 'ratelimit.wishlist_vote_per_min': 3 })
      .expect(200);
  });
  afterAll(() => app?.close());

  it('lets a user create requests up to the hourly limit, then refuses with 429 and creates nothing', async () => {
    const alice = (await userWithSession(app, 'wish-alice')).jwt;
    const create = (jwt: string, title: string) => request(app.url).post('/api/requests').set(bearer(jwt)).send({ title });
    await create(alice, 'First wish').expect(201);
    await create(alice, 'Second wish').expect(201);
    const before = { requests: await count('plugin_request'), audit: await count('audit_entry') };
    expectTooManyRequests(await create(alice, 'Third wish'), app.config.baseUrl, 3600);
    // Malformed ones are refused too: the limit is judged before anything else about the request.
    expectTooManyRequests(await create(alice, ''), app.config.baseUrl, 3600);
    expect({ requests: await count('plugin_request'), audit: await count('audit_entry') }).toEqual(before);
    expect(await count(`plugin_request WHERE title = 'Third wish'`)).toBe(0);
    // Counted per user: another user is not held back by alice.
    const bob = (await userWithSession(app, 'wish-bob')).jwt;
    await create(bob, 'Bob wishes').expect(201);
  });

  it('counts votes and vote removals together per user, per minute; the limit is a setting applied at once', async () => {
    const carol = (await userWithSession(app, 'vote-carol')).jwt;
    const dave = (await userWithSession(app, 'vote-dave')).jwt;
    const id = (await request(app.url).post('/api/requests').set(bearer(dave)).send({ title: 'Vote on me' }).expect(201)).body.id as string;
    const vote = (jwt: string) => request(app.url).post(`/api/requests/${id}/upvote`).set(bearer(jwt));
    const unvote = (jwt: string) => request(app.url).delete(`/api/requests/${id}/upvote`).set(bearer(jwt));
    const votes = () => count(`plugin_request_vote WHERE request_id = '${id}'`);
    await vote(carol).expect(200);
    await unvote(carol).expect(200);
    await vote(carol).expect(200);
    expectTooManyRequests(await unvote(carol), app.config.baseUrl, 60);
    expectTooManyRequests(await vote(carol), app.config.baseUrl, 60);
    expect(await votes()).toBe(1);
    await vote(dave).expect(200);
    expect(await votes()).toBe(2);

    await request(app.url).patch('/api/admin/settings').set(bearer(admin)).send({ 'ratelimit.wishlist_vote_per_min': 10 }).expect(200);
    await unvote(carol).expect(200);
    expect(await votes()).toBe(1);
  });
});

describe('submit limit per user', () => {
  let w: WebhookWorld;
  let hooks: string[];

  beforeAll(async () => {
    w = await WebhookWorld.open({}, {}, true);
    controlClock(w.app);
    hooks = [];
    const api = w.apiPath('github');
    w.forge.route('GET', `${api}/repos/:owner/:repo`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ full_name: `${params.owner}/${params.repo}`, default_branch: 'main', permissions: { admin: true, push: true } }),
      );
    });
    w.forge.route('GET', `${api}/repos/:owner/:repo/contents/.plugin.yaml`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`name: ${params.repo}\nversion: 1.0.0\ndescription: Submitted\n`);
    });
    w.forge.route('POST', `${api}/repos/:owner/:repo/hooks`, (req, res) => {
      hooks.push(req.url ?? '');
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end('{"id":1}');
    });
    await w.setSetting('ratelimit.submit_per_hour', 2);
  });
  afterAll(() => w?.close());

  it('lets a user submit up to the hourly limit, then refuses with 429 before asking the forge or claiming anything', async () => {
    const alice = await linkedUserWithSession(w.app, 'fakehub', 'alice', '2001', 'gho_alice');
    const submit = (jwt: string, repo: string) =>
      w.as(jwt, 'post', '/api/submit/oauth').send({ repoUrl: `${w.webUrl('github')}/mine/${repo}` });
    await submit(alice.jwt, 'limited-one').expect(200);
    await submit(alice.jwt, 'limited-two').expect(200);
    const asked = w.forge.requests.length;
    const audit = (await w.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_entry'))[0].n;
    expectTooManyRequests(await submit(alice.jwt, 'limited-three'), w.app.config.baseUrl, 3600);
    expect(w.forge.requests.length).toBe(asked);
    expect(hooks).toHaveLength(2);
    expect(await w.query(`SELECT 1 FROM plugin WHERE slug = 'limited-three'`)).toEqual([]);
    expect((await w.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_entry'))[0].n).toBe(audit);

    const bob = await linkedUserWithSession(w.app, 'fakehub', 'bob', '2002', 'gho_bob');
    await submit(bob.jwt, 'limited-three').expect(200);
  });
});

describe('reconcile cooldown per plugin', () => {
  let w: WebhookWorld;
  let clock: { advance(ms: number): void };

  beforeAll(async () => {
    w = await WebhookWorld.open();
    clock = controlClock(w.app);
  });
  afterAll(() => w?.close());

  const reconcile = (jwt: string, slug: string) => w.as(jwt, 'post', `/api/plugins/${slug}/deliveries/reconcile`);

  async function pluginWithNoNewReleases() {
    const plugin = await w.plugin('github');
    const releases = `${w.apiPath('github')}/repos/${plugin.repo}/releases`;
    w.forge.json('GET', releases, []);
    return { slug: plugin.slug, asked: () => w.forge.requests.filter((r) => r.url?.startsWith(releases)).length };
  }

  it('runs once per cooldown for owners and admins together, answering 429 with Retry-After in between without asking the forge', async () => {
    await w.setSetting('ratelimit.reconcile_cooldown_s', 60);
    const first = await pluginWithNoNewReleases();
    await reconcile(w.owner.jwt, first.slug).expect(200);
    clock.advance(20_000);
    const refused = await reconcile(w.adminJwt, first.slug);
    expectTooManyRequests(refused, w.app.config.baseUrl, 60);
    expect(Number(refused.headers['retry-after'])).toBe(40);
    expectTooManyRequests(await reconcile(w.owner.jwt, first.slug), w.app.config.baseUrl, 40);
    expect(first.asked()).toBe(1);
    expect(await w.count('webhook_delivery', first.slug)).toBe(0);

    // The cooldown is the plugin's: another plugin is reconciled at once.
    const second = await pluginWithNoNewReleases();
    await reconcile(w.owner.jwt, second.slug).expect(200);

    clock.advance(40_000);
    await reconcile(w.adminJwt, first.slug).expect(200);
    expect(first.asked()).toBe(2);
  });

  it('is not started by somebody who may not reconcile the plugin', async () => {
    const plugin = await pluginWithNoNewReleases();
    const stranger = (await userWithSession(w.app, 'reconcile-stranger')).jwt;
    const denied = await reconcile(stranger, plugin.slug);
    expect([403, 404]).toContain(denied.status);
    await reconcile(w.owner.jwt, plugin.slug).expect(200);
    expect(plugin.asked()).toBe(1);
  });
});
