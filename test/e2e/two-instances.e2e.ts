/**
 * Two compiled instances on one Postgres database and one Redis (docs/operating.md#scaling-out):
 * what one instance writes or caches, the other sees at once. Runs only in the Postgres+Redis pass.
 */
import { type HttpAnswer, TWO_INSTANCES_SKIP_REASON, TwoInstances } from '../support/two-instances';

const A = 0;
const B = 1;

if (TWO_INSTANCES_SKIP_REASON) {
  it.skip(`two instances: skipped, ${TWO_INSTANCES_SKIP_REASON}`, () => undefined);
} else {
  describe('two compiled instances sharing Postgres and Redis', () => {
    let w: TwoInstances;
    let admin: string;
    let owner: { jwt: string; token: string };

    beforeAll(async () => {
      w = await TwoInstances.start();
      admin = (await w.session(true)).jwt;
      const session = await w.session();
      owner = { jwt: session.jwt, token: (await w.publisherToken(session.jwt)).token };
    }, 120_000);

    afterAll(async () => {
      await w?.stop();
    }, 60_000);

    it("keeps stats current across instances: a push through A shows in B's next answer", async () => {
      const first = await w.call(A, 'GET', '/api/stats');
      expect(first.status).toBe(200);
      expect((await w.call(B, 'GET', '/api/stats')).body).toEqual(first.body);
      expect((await w.push(A, owner.token, 'stats-later', '1.0.0')).status).toBe(201);
      expect((await w.call(B, 'GET', '/api/stats')).body.plugins).toBe(first.body.plugins + 1);
      expect((await w.sql<{ n: number }>('SELECT count(*)::int AS n FROM plugin'))[0].n).toBe(first.body.plugins + 1);
    });

    it('shares provider stats: one forge call for both instances', async () => {
      let upstream = 0;
      w.forge.route('GET', '/api/v3/repos/acme/stats-later', (_req, res) => {
        upstream += 1;
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ stargazers_count: 11, forks_count: 2, subscribers_count: 1 }));
      });
      const onA = await w.call(A, 'GET', '/api/plugins/stats-later/stats');
      const onB = await w.call(B, 'GET', '/api/plugins/stats-later/stats');
      expect(onA.body).toMatchObject({ stars: 11, forks: 2, watchers: 1 });
      expect(onB.body).toEqual(onA.body);
      expect(upstream).toBe(1);
    });

    it('gives a slug pushed first through both at once exactly one owner', async () => {
      const rival = await w.session();
      const rivalToken = (await w.publisherToken(rival.jwt, B)).token;
      const answers = await Promise.all([w.push(A, owner.token, 'race-slug', '1.0.0'), w.push(B, rivalToken, 'race-slug', '1.0.0')]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses[0]).toBe(201);
      expect([403, 409]).toContain(statuses[1]);
      expect(answers.find((a) => a.status !== 201)!.headers.get('content-type')).toContain('application/problem+json');
      const owners = await w.sql('SELECT o.user_id FROM plugin_owner o JOIN plugin p ON p.id = o.plugin_id WHERE p.slug = $1', [
        'race-slug',
      ]);
      expect(owners).toHaveLength(1);
    });

    it('records one version pushed through both at once exactly once', async () => {
      expect((await w.push(A, owner.token, 'race-version', '1.0.0')).status).toBe(201);
      const answers = await Promise.all([w.push(A, owner.token, 'race-version', '2.0.0'), w.push(B, owner.token, 'race-version', '2.0.0')]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const releases = await w.sql('SELECT r.id FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.version = $2', [
        'race-version',
        '2.0.0',
      ]);
      expect(releases).toHaveLength(1);
    });

    it('refuses on B a publisher token revoked through A, at once', async () => {
      const token = await w.publisherToken(owner.jwt, A);
      expect((await w.push(B, token.token, 'revoked-later', '1.0.0')).status).toBe(201);
      expect((await w.call(A, 'DELETE', `/api/auth/me/tokens/${token.id}`, { jwt: owner.jwt })).status).toBe(204);
      expect((await w.push(B, token.token, 'revoked-later', '1.0.1')).status).toBe(401);
    });

    it('serves on B the key set of a rotation made on A, at once', async () => {
      const kids = async (via: number) =>
        ((await w.call(via, 'GET', '/.well-known/registry-key.json')).body.keys as { kid: string }[]).map((k) => k.kid);
      const before = await kids(B);
      const rotated = await w.call(A, 'POST', '/api/admin/keys/rotate', { jwt: admin });
      expect(rotated.status).toBe(200);
      const after = await kids(B);
      expect(after[0]).toBe(rotated.body.kid);
      expect(after).not.toEqual(before);
    });

    it('answers on B what a write through A changed, though B had it cached', async () => {
      expect((await w.push(A, owner.token, 'cached-detail', '1.0.0')).status).toBe(201);
      for (const via of [B, B])
        expect((await w.call(via, 'GET', '/api/plugins/cached-detail/latest')).body).toMatchObject({ version: '1.0.0' });
      expect((await w.push(A, owner.token, 'cached-detail', '1.1.0')).status).toBe(201);
      expect((await w.call(B, 'GET', '/api/plugins/cached-detail/latest')).body).toMatchObject({ version: '1.1.0' });
    });

    it('counts a publisher token’s pushes on both instances against one limit (429 with Retry-After on each)', async () => {
      await w.setSettings(admin, { 'ratelimit.publish_per_min': 3 });
      // B reads its limits again within 5 s, and a minute window may end between two pushes (the
      // counters restart): a round with a fresh token is tried until it shows the shared limit.
      const deadline = Date.now() + 30_000;
      let refused: HttpAnswer[] = [];
      while (refused.length === 0) {
        if (Date.now() > deadline) throw new Error('the lowered publish limit was never shared by A and B');
        const token = (await w.publisherToken(owner.jwt)).token;
        const answers: HttpAnswer[] = [];
        for (const via of [A, A, B, B, A]) answers.push(await w.call(via, 'POST', '/api/publish/limited', { jwt: token, body: {} }));
        const statuses = answers.map((a) => a.status);
        if (statuses.join() === '400,400,400,429,429') refused = answers.slice(3);
        else await new Promise((resolve) => setTimeout(resolve, 500));
      }
      for (const answer of refused) expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      await w.setSettings(admin, { 'ratelimit.publish_per_min': 120 });
    });
  });
}
