import type { IncomingMessage } from 'node:http';
import { linkedUserWithSession } from '../support/sessions';
import { WebhookWorld } from '../support/webhook-world';

describe('POST /api/submit/oauth', () => {
  let w: WebhookWorld;
  let hooks: { url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  let refuseHooks = false;

  beforeAll(async () => {
    w = await WebhookWorld.open({}, {}, true);
    hooks = [];
    const api = w.apiPath('github');
    w.forge.route('GET', `${api}/repos/:owner/:repo`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          full_name: `${params.owner}/${params.repo}`,
          default_branch: 'main',
          permissions: { admin: params.owner === 'mine', push: true },
        }),
      );
    });
    w.forge.route('GET', `${api}/repos/:owner/:repo/contents/.plugin.yaml`, (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`name: ${params.repo}\nversion: 1.0.0\ndescription: Submitted\n`);
    });
    w.forge.route('POST', `${api}/repos/:owner/:repo/hooks`, (req, res, _params, body) => {
      hooks.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(body.toString()) });
      res.writeHead(refuseHooks ? 404 : 201, { 'Content-Type': 'application/json' });
      res.end(refuseHooks ? '{"message":"Not Found"}' : '{"id":1}');
    });
  });
  afterAll(() => w?.close());

  const submit = (jwt: string, repoUrl: string) => w.as(jwt, 'post', '/api/submit/oauth').send({ repoUrl });

  it('claims the slug, installs a release-only hook with the right URL and secret, and the hook then verifies', async () => {
    const alice = await linkedUserWithSession(w.app, 'fakehub', 'alice', '1001', 'gho_alice');
    const res = await submit(alice.jwt, `${w.webUrl('github')}/mine/submitted-one`).expect(200);
    const webhookUrl = `${w.app.config.baseUrl}/api/webhooks/release`;
    expect(res.body).toEqual({
      slug: 'submitted-one',
      webhookUrl,
      webhookSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      webhookInstalled: true,
    });
    expect(hooks).toHaveLength(1);
    expect(hooks[0].url).toBe(`${w.apiPath('github')}/repos/mine/submitted-one/hooks`);
    expect(hooks[0].headers.authorization).toBe('Bearer gho_alice');
    expect(hooks[0].body).toEqual({
      name: 'web',
      active: true,
      events: ['release'],
      config: { url: webhookUrl, content_type: 'json', secret: res.body.webhookSecret, insecure_ssl: '0' },
    });
    const [owner] = await w.query<{ login: string }>(
      `SELECT u.login FROM plugin p JOIN plugin_owner o ON o.plugin_id = p.id JOIN user_account u ON u.id = o.user_id WHERE p.slug = 'submitted-one'`,
    );
    expect(owner.login).toBe('alice');

    const plugin = {
      kind: 'github' as const,
      slug: 'submitted-one',
      repo: 'mine/submitted-one',
      repoUrl: `${w.webUrl('github')}/mine/submitted-one`,
      secret: res.body.webhookSecret,
    };
    await w.deliver('github', plugin.secret, w.releaseEvent(plugin, 'v1.0.0', [])).expect(202);
  });

  it('still returns the secret with webhookInstalled false when the forge refuses the hook', async () => {
    refuseHooks = true;
    try {
      const bob = await linkedUserWithSession(w.app, 'fakehub', 'bob', '1002', 'gho_bob');
      const res = await submit(bob.jwt, `${w.webUrl('github')}/mine/submitted-two`).expect(200);
      expect(res.body).toMatchObject({
        slug: 'submitted-two',
        webhookInstalled: false,
        webhookSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    } finally {
      refuseHooks = false;
    }
  });

  it('applies the claim rules: not an admin is 403, a repository or slug held by someone else 409/403', async () => {
    const carol = await linkedUserWithSession(w.app, 'fakehub', 'carol', '1003', 'gho_carol');
    await submit(carol.jwt, `${w.webUrl('github')}/theirs/not-carols`).expect(403);
    // alice's repository, already anchoring submitted-one
    await submit(carol.jwt, `${w.webUrl('github')}/mine/submitted-one`).expect(409);
    const unlinked = await w.as(w.owner.jwt, 'post', '/api/submit/oauth').send({ repoUrl: `${w.webUrl('github')}/mine/anything` });
    expect(unlinked.status).toBe(403);
    await w.as(carol.jwt, 'post', '/api/submit/oauth').send({ repoUrl: 'not a url' }).expect(400);
  });
});
