/**
 * While nothing changes, a catalogue resource answers the same bytes and ETag on every path: a
 * miss and a hit of the response cache, the catalogue lane and the controllers behind Express,
 * GET and HEAD, and revalidates to 304 with the ETag any of them gave. Checked right after a
 * publish (the moment a report had an ETag change 4 ms later), and again once the background
 * passes have run (stored plugin pages on PostgreSQL, the catalogue index's catch-up, the
 * download counter's flush), on both databases.
 */
import request from 'supertest';
import { picture } from '../../src/catalogue/images/testing/pictures';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

const SLUG = 'steady';
const ROUNDS = 4;
/** Past the page builder's pass (1 s), the catalogue index's catch-up (2 s) and the download counter's flush (1 s). */
const BACKGROUND_PASSES_MS = 2_500;

/** The reads a client makes of one plugin after publishing it: detail, latest, releases, list and search. */
const pathsOf = (version: string) => [
  `/api/plugins/${SLUG}`,
  `/api/plugins/${SLUG}?locale=de`,
  `/api/plugins/${SLUG}/latest?os=linux&arch=x64`,
  `/api/plugins/${SLUG}/releases/latest`,
  `/api/plugins/${SLUG}/releases/${version}`,
  '/api/plugins',
  `/api/plugins?search=${SLUG}`,
  '/api/plugins?tag=steady&sort=name',
];

interface Answer {
  path: string;
  via: string;
  status: number;
  etag: string | undefined;
  cache: string | undefined;
  text: string;
}

describe('the same resource, the same bytes and ETag on every path', () => {
  let w: PublishWorld;
  let token: string;

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('steady-author', ['publish:*'])).token;
    // Hundreds of reads a minute from one address: past the public read limit's default.
    const admin = await userWithSession(w.app, 'steady-admin', 'admin');
    await request(w.app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.public_read_per_min': 100_000 })
      .expect(200);
    w.forge.file('/pictures/icon.png', await picture('png', 300, 200), 'image/png');
    w.forge.file('/pictures/shot.jpg', await picture('jpeg', 800, 400), 'image/jpeg');
  });
  afterAll(() => w?.close());

  const publish = async (version: string) => {
    w.forge.file(
      `/acme/${SLUG}/raw/${version}/README.md`,
      `# Steady ${version}\n\n![shot](${w.forge.url}/pictures/shot.jpg)\n`,
      'text/markdown',
    );
    w.forge.file(`/acme/${SLUG}/raw/${version}/README.de.md`, `# Beständig ${version}\n`, 'text/markdown');
    await w
      .push(token, SLUG, {
        manifest: manifestYaml({
          name: SLUG,
          version,
          description: 'answers the same while nothing changes',
          tags: ['steady'],
          icon: `${w.forge.url}/pictures/icon.png`,
          screenshots: [{ url: `${w.forge.url}/pictures/shot.jpg`, caption: 'Still' }],
          readmes: { de: 'README.de.md', en: 'README.md' },
        }),
        manifestSource: 'plugin.yaml',
        version,
        assets: [
          {
            name: 'steady-linux-x64.tgz',
            url: w.forge.asset(`/acme/${SLUG}/${version}/steady-linux-x64.tgz`, { size: 500, seed: version.length }),
          },
        ],
        repoUrl: `${w.forge.url}/acme/${SLUG}`,
      })
      .expect(201);
  };

  /** One read: anonymous (the lane, and the response cache), or with credentials (the controllers; an unknown token reads as anonymous). */
  const read = async (path: string, via: 'lane' | 'express', method: 'get' | 'head' = 'get', ifNoneMatch?: string): Promise<Answer> => {
    let req = request(w.app.url)[method](path);
    if (via === 'express') req = req.set('Authorization', 'Bearer not-a-token');
    if (ifNoneMatch) req = req.set('If-None-Match', ifNoneMatch);
    const res = await req;
    return {
      path,
      via: `${method} ${via}`,
      status: res.status,
      etag: res.headers.etag,
      cache: res.headers['x-cache'],
      text: method === 'head' ? '' : res.text,
    };
  };

  /**
   * A revalidation as a browser or Node makes it: `fetch()` adds `Cache-Control: no-cache` and
   * `Pragma: no-cache` to any request carrying `If-None-Match`. Right after a publish the cache
   * is empty, so this is answered by a miss (or, with credentials, by the controllers).
   */
  const revalidateWithFetch = async (path: string, via: 'lane' | 'express', etag: string | undefined): Promise<Answer> => {
    const headers: Record<string, string> = etag ? { 'If-None-Match': etag } : {};
    if (via === 'express') headers.Authorization = 'Bearer not-a-token';
    const res = await fetch(`${w.app.url}${path}`, { headers });
    return {
      path,
      via: `fetch ${via} revalidating`,
      status: res.status,
      etag: res.headers.get('etag') ?? undefined,
      cache: res.headers.get('x-cache') ?? undefined,
      text: await res.text(),
    };
  };

  /** Every path read ROUNDS times each way, each answer revalidated at once (and as fetch() does); a freshness period that ends meanwhile (hourly) is a change, so the reads are taken again. */
  const readAll = async (version: string): Promise<Answer[]> => {
    for (;;) {
      const hour = Math.floor(Date.now() / 3_600_000);
      const answers: Answer[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const path of pathsOf(version)) {
          for (const via of ['lane', 'express'] as const) {
            for (const method of ['get', 'head'] as const) {
              const answer = await read(path, via, method);
              const again = await read(path, via, method, answer.etag);
              answers.push(answer, { ...again, via: `${again.via} revalidating` });
              if (method === 'get') answers.push(await revalidateWithFetch(path, via, answer.etag));
            }
          }
        }
      }
      if (Math.floor(Date.now() / 3_600_000) === hour) return answers;
    }
  };

  /** What differs from the first answer of each path: nothing, when nothing changed. */
  const differences = (answers: Answer[], reference: Map<string, Answer>) =>
    answers.flatMap((answer) => {
      const first = reference.get(answer.path)!;
      if (answer.via.endsWith('revalidating'))
        return answer.status === 304 && answer.etag === first.etag ? [] : [`${answer.path} ${answer.via}: ${answer.status} ${answer.etag}`];
      const same = answer.status === 200 && answer.etag === first.etag && (answer.via.startsWith('head') || answer.text === first.text);
      return same
        ? []
        : [`${answer.path} ${answer.via} (${answer.cache ?? 'uncached'}): ${answer.status} ${answer.etag}, first ${first.etag}`];
    });

  it.each(['1.0.0', '1.1.0'])(
    'after publishing %s: one answer per resource, on every path, and still after the background passes',
    async (version) => {
      await publish(version);
      const answers = await readAll(version);
      const reference = new Map<string, Answer>();
      for (const answer of answers) if (answer.via === 'get lane' && !reference.has(answer.path)) reference.set(answer.path, answer);
      // The answers are of this release, not the one before.
      expect(JSON.parse(reference.get(`/api/plugins/${SLUG}`)!.text)).toMatchObject({
        latestVersion: version,
        readmeLocale: 'en',
        readmeAvailableLocales: ['de', 'en'],
      });
      expect(JSON.parse(reference.get(`/api/plugins/${SLUG}?locale=de`)!.text).readmeHtml).toContain(`Beständig ${version}`);
      expect(differences(answers, reference)).toEqual([]);
      // Every path was taken: the lane's misses and the cache's hits, and the controllers'.
      const cached = answers.filter((answer) => answer.via === 'get lane');
      expect(new Set(cached.map((answer) => answer.cache))).toEqual(new Set(['miss', 'hit']));
      expect(answers.filter((answer) => answer.via === 'get express').every((answer) => answer.cache === undefined)).toBe(true);

      await new Promise((resolve) => setTimeout(resolve, BACKGROUND_PASSES_MS));
      expect(differences(await readAll(version), reference)).toEqual([]);
    },
  );
});
