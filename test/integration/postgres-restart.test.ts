/**
 * The database restarts under load: while it is down every request that needs it gets 503
 * problem+json (never 500, never a hang), and once it is back reads and publishing work again
 * without restarting the service. A throwaway cluster (initdb on a free port) is the database, so
 * the machine's shared cluster is never stopped.
 */
import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { ScratchPostgres, scratchPostgresUnavailable } from '../support/scratch-postgres';

const skipReason = !process.env.DATABASE_URL
  ? 'runs in the DATABASE_URL pass only (needs the PostgreSQL server binaries)'
  : scratchPostgresUnavailable();
const describeWithServer = skipReason ? describe.skip : describe;
if (skipReason) console.info(`postgres-restart tests skipped: ${skipReason}`);

const DEADLINE_MS = 30_000;

describeWithServer('PostgreSQL restarted under load', () => {
  let cluster: ScratchPostgres;
  let w: PublishWorld;
  let token: string;

  const publishBody = (slug: string) => {
    const repo = `acme/${slug}`;
    const asset = w.forge.asset(`/${repo}/releases/download/v1.0.0/${slug}.zip`, { size: 2_000, seed: 3 });
    return {
      manifest: manifestYaml({ name: slug, version: '1.0.0', description: 'A plugin published around a restart' }),
      manifestSource: 'plugin.yaml',
      version: 'v1.0.0',
      assets: [{ name: `${slug}.zip`, url: asset }],
      repoUrl: `${w.forge.url}/${repo}`,
    };
  };

  beforeAll(async () => {
    cluster = await ScratchPostgres.fresh();
    await cluster.query('CREATE DATABASE registry');
    w = await publishWorld({ DATABASE_URL: cluster.url('registry'), RESPONSE_CACHE_TTL_S: '0' });
    token = (await w.tokenFor('restarter', ['publish:*'])).token;
  }, 120_000);

  afterAll(async () => {
    await w?.close();
    await cluster?.remove();
  });

  it('answers 503 problem+json while the database is down and recovers when it is back', async () => {
    await w.push(token, 'before-restart', publishBody('before-restart')).expect(201);
    const reads = ['/api/plugins', '/api/plugins?search=restart', '/api/plugins/before-restart', '/api/kinds'];
    for (const path of reads) await request(w.app.url).get(path).expect(200);

    // Readers keep going through the whole stop and start: each answer is 200 or 503, never 500.
    const statuses = new Set<number>();
    let loading = true;
    const readers = Array.from({ length: 3 }, async (_, i) => {
      while (loading) statuses.add((await request(w.app.url).get(reads[i % reads.length])).status);
    });

    await cluster.stop('fast');

    // Known down: answered at once, not after the pool's connect timeout.
    const askedAt = Date.now();
    const down = await Promise.all([
      ...reads.map((path) => request(w.app.url).get(path)),
      w.push(token, 'while-down', publishBody('while-down')),
      request(w.app.url).get('/health/ready'),
    ]);
    expect(Date.now() - askedAt).toBeLessThan(2_000);
    for (const res of down) {
      expect(res.status).toBe(503);
      if (res.type === 'application/problem+json') expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/application\/problem\+json|application\/json/);
    }
    const apiProblems = down.slice(0, reads.length + 1).map((res) => res.body as { type: string; status: number });
    for (const problem of apiProblems)
      expect(problem).toMatchObject({ type: expect.stringMatching(/\/problems\/database-unavailable$/), status: 503 });

    await cluster.start();
    const readyAt = Date.now();
    const until = readyAt + DEADLINE_MS;
    while ((await request(w.app.url).get('/api/plugins')).status !== 200) {
      if (Date.now() > until) throw new Error('reads did not recover within 30 s of the restart');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The availability probe backs off to 500 ms at most: reads are back well within 3 s.
    expect(Date.now() - readyAt).toBeLessThan(3_000);
    for (const path of reads) await request(w.app.url).get(path).expect(200);
    loading = false;
    await Promise.all(readers);
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    await w.push(token, 'after-restart', publishBody('after-restart')).expect(201);
    const list = await request(w.app.url).get('/api/plugins').expect(200);
    expect((list.body.plugins as { slug: string }[]).map((p) => p.slug).sort()).toEqual(['after-restart', 'before-restart']);
  });
});
