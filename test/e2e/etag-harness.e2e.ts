/**
 * Investigation harness for the ETags and answers around a publish
 * (docs/api-conventions.md#http-conventions), opt-in: `ETAG_HARNESS=1 npx jest -w 1
 * test/e2e/etag-harness.e2e.ts` (with DATABASE_URL and REDIS_URL for PostgreSQL), after `npm run
 * build`. The compiled server, publishes by CI push (read while it runs and after it) and by
 * webhook (read from the 202 on), every catalogue resource read in a loop on the lane (the
 * response cache), with credentials (the controllers) and revalidated as fetch() does. It writes
 * to HARNESS_OUT (/tmp/etag-harness.txt) every pair of consecutive answers that differ (with a
 * JSON diff), every revalidation not answered 304, every answer older than one another path had
 * already served (STALE), and the read counts. It asserts nothing: a report to read.
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';
import { FakeForge, webhookHeaders } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { compiledServerEnv } from '../support/two-instances';
import { releaseEvent } from '../support/webhook-world';

const READ_MS = Number(process.env.HARNESS_READ_MS ?? 4000);
const VERSIONS = Number(process.env.HARNESS_VERSIONS ?? 3);

interface Answer {
  key: string;
  start: number;
  at: number;
  status: number;
  etag: string | null;
  cache: string | null;
  text: string;
  revalidated: number;
}

jest.setTimeout(900_000);

(process.env.ETAG_HARNESS ? describe : describe.skip)('etag harness', () => {
  let db: TestDatabase;
  let forge: FakeForge;
  let server: CompiledServer;
  let url = '';
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    forge = await new FakeForge().start();
    env = {
      ...compiledServerEnv(db, forge),
      ...(process.env.HARNESS_ENV ? JSON.parse(process.env.HARNESS_ENV) : {}),
    };
    server = spawnServe(env);
    url = await listening(server);
    forge.file('/pictures/icon.png', await picture('png', 300, 200), 'image/png');
    forge.file('/pictures/shot.jpg', await picture('jpeg', 800, 400), 'image/jpeg');
  });
  afterAll(async () => {
    if (server) await stopServe(server);
    await forge?.stop();
    await db?.drop();
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  /** node:http, so no header is added behind our back (fetch adds Cache-Control: no-cache to a conditional request). */
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    new Promise<{ status: number; headers: Map<string, string>; text: string }>((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = http.request(
        `${url}${path}`,
        { method, agent, headers: { ...headers, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: new Map(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const manifest = (slug: string, version: string) =>
    manifestYaml({
      name: slug,
      version,
      description: 'answers the same while nothing changes',
      tags: ['steady'],
      icon: `${forge.url}/pictures/icon.png`,
      screenshots: [{ url: `${forge.url}/pictures/shot.jpg`, caption: 'Still' }],
      readmes: { de: 'README.de.md', en: 'README.md' },
    });
  const files = (slug: string, version: string) => {
    for (const tag of [version, `v${version}`]) {
      forge.file(
        `/acme/${slug}/raw/${tag}/README.md`,
        `# ${slug} ${version}\n\n![shot](${forge.url}/pictures/shot.jpg)\n`,
        'text/markdown',
      );
      forge.file(`/acme/${slug}/raw/${tag}/README.de.md`, `# Beständig ${version}\n`, 'text/markdown');
    }
  };

  const pathsOf = (slug: string, version: string) => [
    `/api/plugins/${slug}`,
    `/api/plugins/${slug}?locale=de`,
    `/api/plugins/${slug}/latest?os=linux&arch=x64`,
    `/api/plugins/${slug}/releases/latest`,
    `/api/plugins/${slug}/releases/${version}`,
    '/api/plugins',
    `/api/plugins?search=${slug}`,
    '/api/plugins?tag=steady&sort=name',
  ];

  /** Reads every path on every way in a loop for `ms`, concurrently with whatever runs. */
  const hammer = async (slug: string, version: string, ms: number, until?: Promise<unknown>): Promise<Answer[]> => {
    const answers: Answer[] = [];
    const end = Date.now() + ms;
    let done = false;
    void until?.then(() => (done = true));
    while (Date.now() < end || (until && !done)) {
      for (const path of pathsOf(slug, version)) {
        for (const via of ['lane', 'express', 'fetchlike']) {
          const headers: Record<string, string> = via === 'express' ? { Authorization: 'Bearer not-a-token' } : {};
          const start = Date.now();
          const a = await call('GET', path, headers);
          const end = Date.now();
          const conditional: Record<string, string> = a.headers.get('etag') ? { 'If-None-Match': a.headers.get('etag')! } : {};
          if (via === 'fetchlike') Object.assign(conditional, { 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
          const r = await call('GET', path, { ...headers, ...conditional });
          answers.push({
            key: `${via} ${path}`,
            start,
            at: end,
            status: a.status,
            etag: a.headers.get('etag') ?? null,
            cache: a.headers.get('x-cache') ?? null,
            text: a.text,
            revalidated: r.status,
          });
        }
      }
    }
    return answers;
  };

  const diffJson = (a: string, b: string): string[] => {
    const out: string[] = [];
    const walk = (x: unknown, y: unknown, path: string) => {
      if (JSON.stringify(x) === JSON.stringify(y)) return;
      if (x && y && typeof x === 'object' && typeof y === 'object') {
        const keys = new Set([...Object.keys(x as object), ...Object.keys(y as object)]);
        for (const k of keys) walk((x as any)[k], (y as any)[k], `${path}/${k}`);
        if (keys.size && JSON.stringify(Object.keys(x as object)) !== JSON.stringify(Object.keys(y as object)) && !Array.isArray(x))
          out.push(`${path}: key order ${Object.keys(x as object)} vs ${Object.keys(y as object)}`);
        return;
      }
      out.push(`${path}: ${JSON.stringify(x)?.slice(0, 120)} -> ${JSON.stringify(y)?.slice(0, 120)}`);
    };
    try {
      walk(JSON.parse(a), JSON.parse(b), '');
    } catch {
      out.push(`not JSON: ${a.slice(0, 80)} / ${b.slice(0, 80)}`);
    }
    if (!out.length && a !== b) out.push('same JSON, different bytes');
    return out;
  };

  const report: string[] = [];
  const analyse = (label: string, answers: Answer[]) => {
    let reads = 0;
    const last = new Map<string, Answer>();
    const seen = new Map<string, string[]>();
    const byState = new Map<string, Map<string, string>>();
    for (const a of answers) {
      reads++;
      const prev = last.get(a.key);
      if (a.status !== 200) {
        report.push(`${label} ${a.key}: status ${a.status} ${a.text.slice(0, 100)}`);
        continue;
      }
      if (a.status === 200 && a.revalidated !== 304) report.push(`${label} ${a.key}: revalidating its own ETag got ${a.revalidated}`);
      if (prev && (prev.etag !== a.etag || prev.text !== a.text)) {
        const history = seen.get(a.key) ?? [];
        const flip = history.includes(a.etag ?? '');
        report.push(
          `${label} ${a.key} +${a.at - prev.at}ms ${prev.cache}->${a.cache} ${prev.etag} -> ${a.etag}${flip ? ' FLIP-FLOP (returned to an earlier answer)' : ''}\n    ${diffJson(prev.text, a.text).join('\n    ')}`,
        );
      }
      const history = seen.get(a.key) ?? [];
      if (!history.includes(a.etag ?? '')) history.push(a.etag ?? '');
      seen.set(a.key, history);
      last.set(a.key, a);
      // Same path, lane vs express: the set of answers each gives.
      const path = a.key.replace(/^\S+ /, '');
      const states = byState.get(path) ?? new Map<string, string>();
      states.set(`${a.key.split(' ')[0]} ${a.etag}`, a.text);
      byState.set(path, states);
    }
    // Across every way of reading one path: an answer older than one already served.
    const paths = new Set(answers.map((a) => a.key.replace(/^\S+ /, '')));
    for (const path of paths) {
      const mine = answers.filter((a) => a.status === 200 && a.key.endsWith(` ${path}`));
      const ordinal = new Map<string, number>();
      for (const a of [...mine].sort((x, y) => x.at - y.at)) if (!ordinal.has(a.etag!)) ordinal.set(a.etag!, ordinal.size);
      for (const a of mine) {
        const before = mine.filter((b) => b.at < a.start);
        const newest = before.reduce<Answer | null>((m, b) => (m && ordinal.get(m.etag!)! >= ordinal.get(b.etag!)! ? m : b), null);
        if (newest && ordinal.get(newest.etag!)! > ordinal.get(a.etag!)!) {
          report.push(
            `${label} STALE ${a.key} (${a.cache}) served ${a.etag} after ${newest.key} (${newest.cache}) served ${newest.etag} ${a.start - newest.at}ms before\n    ${diffJson(a.text, newest.text).join('\n    ')}`,
          );
        }
      }
    }
    for (const [path, states] of byState) {
      const lane = [...states].filter(([k]) => k.startsWith('lane')).map(([k]) => k.split(' ')[1]);
      const express = [...states].filter(([k]) => k.startsWith('express')).map(([k]) => k.split(' ')[1]);
      const onlyLane = lane.filter((e) => !express.includes(e));
      const onlyExpress = express.filter((e) => !lane.includes(e));
      if (onlyLane.length || onlyExpress.length)
        report.push(`${label} ${path}: ETags only on the lane ${onlyLane}, only on Express ${onlyExpress}`);
    }
    report.push(`${label}: ${reads} reads (each revalidated)`);
  };

  it('hammers after each kind of publish', async () => {
    const created = await registryCli(['users', 'create', 'steady-author'], env);
    expect(created.code).toBe(0);
    const jwt = (await registryCli(['sessions', 'issue', 'steady-author'], env)).stdout.trim();
    const tokenRes = await call('POST', '/api/auth/me/tokens', { Authorization: `Bearer ${jwt}` }, { name: 'ci', scopes: ['publish:*'] });
    const token = JSON.parse(tokenRes.text).token as string;
    expect((await registryCli(['users', 'create', 'steady-admin', '--admin'], env)).code).toBe(0);
    const adminJwt = (await registryCli(['sessions', 'issue', 'steady-admin'], env)).stdout.trim();
    const limits = await call(
      'PATCH',
      '/api/admin/settings',
      { Authorization: `Bearer ${adminJwt}` },
      { 'ratelimit.public_read_per_min': 1_000_000 },
    );
    expect(limits.status).toBe(200);

    const push = (slug: string, version: string) => {
      files(slug, version);
      return call(
        'POST',
        `/api/publish/${slug}`,
        { Authorization: `Bearer ${token}` },
        {
          manifest: manifest(slug, version),
          manifestSource: 'plugin.yaml',
          version,
          assets: [
            {
              name: `${slug}-linux-x64.tgz`,
              url: forge.asset(`/acme/${slug}/${version}/${slug}-linux-x64.tgz`, { size: 500, seed: version.length }),
            },
          ],
          repoUrl: `${forge.url}/acme/${slug}`,
        },
      );
    };

    // CI push: read only after the 201, and also while it runs.
    for (let i = 0; i < VERSIONS; i++) {
      const version = `1.${i}.0`;
      const warm = hammer('steady', version, 300);
      await warm;
      const pushing = push('steady', version);
      const during = await hammer('steady', version, 0, pushing);
      const res = await pushing;
      expect(res.status).toBe(201);
      analyse(`push ${version} during`, during);
      analyse(`push ${version} after`, await hammer('steady', version, READ_MS));
    }

    // Webhook: claim by push, a secret, then deliveries; read from the 202 on.
    const slug = 'hooked';
    expect((await push(slug, '0.1.0')).status).toBe(201);
    const rotated = await call('POST', `/api/plugins/${slug}/webhook-secret`, { Authorization: `Bearer ${jwt}` }, {});
    const secret = JSON.parse(rotated.text).webhookSecret as string;
    for (let i = 1; i <= VERSIONS; i++) {
      const version = `0.${i + 1}.0`;
      files(slug, version);
      await hammer(slug, version, 300);
      const base = `/downloads/acme/${slug}/${version}`;
      forge.route('GET', `${base}/plugin.yaml`, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/yaml' });
        res.end(manifest(slug, version));
      });
      const assets = [
        { name: 'plugin.yaml', url: `${forge.url}${base}/plugin.yaml` },
        { name: `${slug}-linux-x64.tar.gz`, url: forge.asset(`${base}/${slug}-linux-x64.tar.gz`, { size: 4000, seed: 7 }) },
      ];
      const event = releaseEvent({ kind: 'github', repoUrl: `${forge.url}/acme/${slug}` }, version, assets);
      const delivered = await call(
        'POST',
        '/api/webhooks/release',
        webhookHeaders('github', secret, event.body, event.event),
        event.body.toString('utf8'),
      );
      expect(delivered.status).toBeLessThan(300);
      analyse(`webhook ${version}`, await hammer(slug, version, READ_MS + 3000));
      const deliveries = await call('GET', `/api/plugins/${slug}/deliveries`, { Authorization: `Bearer ${jwt}` });
      report.push(`webhook ${version} deliveries: ${deliveries.text.slice(0, 300)}`);
    }
    writeFileSync(process.env.HARNESS_OUT ?? '/tmp/etag-harness.txt', report.join('\n'));
  });
});
