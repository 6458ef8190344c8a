/**
 * README ingest through POST /api/publish/:slug against fake GitHub-, GitLab- and Gitea-shaped
 * forges: the tag a README is read at (with or without a leading v), the bounds (parallel reads,
 * 1 MiB of markdown each, 2 MiB of HTML per release), warnings in the response and the audit, and
 * storage in release_readme rows.
 */
import request from 'supertest';
import { ASSET_CONCURRENCY } from '../../src/platform/fetch-policy/fetch-policy';
import { TRUNCATION_NOTICE, README_MAX_LENGTH } from '../../src/platform/markdown';
import { ReleaseReadmesRepository } from '../../src/catalogue/plugins/release-readmes.repository';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

type Kind = 'github' | 'gitlab' | 'gitea';

const RAW_PATH: Record<Kind, (repo: string, tag: string, file: string) => string> = {
  github: (repo, tag, file) => `/${repo}/raw/${tag}/${file}`,
  gitlab: (repo, tag, file) => `/${repo}/-/raw/${tag}/${file}`,
  gitea: (repo, tag, file) => `/${repo}/raw/tag/${tag}/${file}`,
};

const MiB = 1024 * 1024;

describe('README ingest', () => {
  let w: PublishWorld;
  let token: string;
  const forges = {} as Record<Kind, FakeForge>;
  let counter = 0;

  beforeAll(async () => {
    for (const kind of ['github', 'gitlab', 'gitea'] as const) forges[kind] = await new FakeForge().start();
    const api = { github: '/api/v3', gitlab: '/api/v4', gitea: '/api/v1' };
    w = await publishWorld({
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      FORGES: JSON.stringify(
        (['github', 'gitlab', 'gitea'] as const).map((kind) => ({
          name: `fake-${kind}`,
          type: kind,
          webUrl: forges[kind].url,
          apiUrl: `${forges[kind].url}${api[kind]}`,
        })),
      ),
    });
    token = (await w.tokenFor('reader', ['publish:*'])).token;
  });
  afterAll(async () => {
    await w?.close();
    for (const forge of Object.values(forges)) await forge.stop();
  });

  /** A new repository on the forge of `kind`, and a push body for it (README routes are up to the test). */
  function release(kind: Kind, pushed: string, manifest: Record<string, unknown> = {}) {
    const slug = `readme-${kind}-${counter++}`;
    const repo = `acme/${slug}`;
    const asset = w.forge.asset(`/assets/${slug}.zip`, { size: 100 });
    const body = {
      manifest: manifestYaml({ name: slug, version: pushed.replace(/^v/, ''), ...manifest }),
      manifestSource: 'plugin.yaml',
      version: pushed,
      assets: [{ name: `${slug}.zip`, url: asset }],
      repoUrl: `${forges[kind].url}/${repo}`,
    };
    const serve = (tag: string, file: string, markdown: string | ((file: string) => Promise<string> | string)) =>
      forges[kind].route('GET', RAW_PATH[kind](repo, tag, file), async (_req, res, params) => {
        const text = typeof markdown === 'string' ? markdown : await markdown(params.file ?? file);
        res.writeHead(200, { 'Content-Type': 'text/markdown' });
        res.end(text);
      });
    return { slug, repo, body, serve, rawUrl: (tag: string, file: string) => `${forges[kind].url}${RAW_PATH[kind](repo, tag, file)}` };
  }

  async function storedReadmes(slug: string): Promise<{ locale: string; position: number; html: string }[]> {
    return w.app.database.dataSource.query(
      `SELECT rr.locale, rr.position, rr.html FROM release_readme rr JOIN release r ON r.id = rr.release_id JOIN plugin p ON p.id = r.plugin_id
       WHERE p.slug = $1 ORDER BY rr.position`,
      [slug],
    );
  }

  async function publishWarnings(slug: string): Promise<unknown> {
    const entry = (await w.audit('plugin.publish')).find((a) => a.slug === slug);
    return entry?.details.warnings;
  }

  describe('reads the README at the tag that exists: as pushed, then with and without a leading v', () => {
    it.each([
      ['github', '1.2.0', 'v1.2.0'],
      ['github', 'v1.2.0', '1.2.0'],
      ['gitlab', '1.2.0', 'v1.2.0'],
      ['gitlab', 'v1.2.0', '1.2.0'],
      ['gitea', '1.2.0', 'v1.2.0'],
      ['gitea', 'v1.2.0', '1.2.0'],
    ] as const)('%s: pushed %s, README only under %s', async (kind, pushed, tag) => {
      const r = release(kind, pushed);
      r.serve(tag, 'README.md', '# Hello\n\n![logo](docs/logo.png)\n');
      const res = await w.push(token, r.slug, r.body).expect(201);
      expect(res.body.warnings).toEqual([]);

      const rows = await storedReadmes(r.slug);
      expect(rows.map((row) => row.locale)).toEqual(['default']);
      expect(rows[0].html).toContain('<h1>Hello</h1>');
      // Relative references point at the tag the README was found at (images through the signed proxy).
      expect(rows[0].html).toContain(`src="/image-proxy?url=${encodeURIComponent(r.rawUrl(tag, 'docs/logo.png'))}&amp;sig=`);
      const tried = forges[kind].requests.map((request) => request.url).filter((url) => url.includes(r.repo));
      expect(tried).toEqual([RAW_PATH[kind](r.repo, pushed, 'README.md'), RAW_PATH[kind](r.repo, tag, 'README.md')]);
    });

    it.each(['github', 'gitlab', 'gitea'] as const)(
      '%s: a README under neither tag is a warning in the response and the audit, not a silent drop',
      async (kind) => {
        const r = release(kind, '1.2.0', { readmes: { de: 'README.de.md', en: 'README.md' } });
        r.serve('1.2.0', 'README.md', '# English');
        const res = await w.push(token, r.slug, r.body).expect(201);
        const warning = 'README README.de.md (de) was not rendered: not found at any of the tags 1.2.0, v1.2.0';
        expect(res.body.warnings).toEqual([warning]);
        expect(await publishWarnings(r.slug)).toEqual([warning]);
        expect((await storedReadmes(r.slug)).map((row) => row.locale)).toEqual(['en']);
      },
    );
  });

  describe('bounds', () => {
    it(`reads a release's README files in parallel, ${ASSET_CONCURRENCY} at a time`, async () => {
      const locales = ['de', 'en', 'fr', 'it', 'es', 'pt', 'pt-BR', 'nl', 'sv', 'da', 'fi', 'pl', 'cs', 'ja', 'ko', 'zh'];
      const r = release('github', 'v2.0.0', { readmes: Object.fromEntries(locales.map((locale) => [locale, `README.${locale}.md`])) });
      let inFlight = 0;
      let max = 0;
      let served = 0;
      let waiting: (() => void)[] = [];
      let timer: NodeJS.Timeout | undefined;
      const releaseAll = () => {
        clearTimeout(timer);
        const batch = waiting;
        waiting = [];
        batch.forEach((resolve) => resolve());
      };
      // Requests are held until as many as the bound allows are waiting together (a short grace
      // lets one too many show up); the timer only keeps a sequential reader from hanging.
      r.serve('v2.0.0', ':file', async (file) => {
        inFlight++;
        max = Math.max(max, inFlight);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          clearTimeout(timer);
          timer = setTimeout(releaseAll, waiting.length >= Math.min(ASSET_CONCURRENCY, locales.length - served) ? 50 : 2_000);
        });
        inFlight--;
        served++;
        return `# ${file}`;
      });
      const res = await w.push(token, r.slug, r.body).expect(201);
      expect(res.body.warnings).toEqual([]);
      expect(max).toBe(ASSET_CONCURRENCY);
      const rows = await storedReadmes(r.slug);
      expect(rows.map((row) => row.locale)).toEqual(locales);
      expect(rows.map((row) => row.html)).toEqual(locales.map((locale) => `<h1>README.${locale}.md</h1>\n`));
    });

    it('leaves out a README over 1 MiB of markdown with a warning; the others are kept', async () => {
      const r = release('gitlab', '1.0.0', { readmes: { en: 'README.md', de: 'README.de.md' } });
      r.serve('1.0.0', 'README.md', '# English');
      r.serve('1.0.0', 'README.de.md', 'x'.repeat(MiB + 1));
      const res = await w.push(token, r.slug, r.body).expect(201);
      const warning = 'README README.de.md (de) is larger than 1 MiB and was not rendered';
      expect(res.body.warnings).toEqual([warning]);
      expect(await publishWarnings(r.slug)).toEqual([warning]);
      expect((await storedReadmes(r.slug)).map((row) => row.locale)).toEqual(['en']);
    });

    it('renders a README of exactly 1 MiB, showing its start and saying so in a warning', async () => {
      const r = release('gitea', '1.0.0');
      r.serve('1.0.0', 'README.md', `${'word '.repeat(19)}\n\n`.repeat(MiB / 97).padEnd(MiB, 'x'));
      const res = await w.push(token, r.slug, r.body).expect(201);
      expect(res.body.warnings).toEqual([`README README.md is longer than ${README_MAX_LENGTH} characters; only its start is shown`]);
      const rows = await storedReadmes(r.slug);
      expect(rows[0].html.endsWith(TRUNCATION_NOTICE)).toBe(true);
    });

    it('keeps at most 2 MiB of rendered HTML per release, naming the locales left out', async () => {
      // 3,000 lines of 99 `<` render to 1,212,000 bytes of `&lt;`: two of them do not fit in 2 MiB.
      const big = `${'<'.repeat(99)}\n\n`.repeat(3000);
      const r = release('github', '3.0.0', { readmes: { de: 'de.md', fr: 'fr.md', it: 'it.md', es: 'es.md' }, readme: 'README.md' });
      r.serve('3.0.0', 'de.md', big);
      r.serve('3.0.0', 'fr.md', big);
      r.serve('3.0.0', 'it.md', '# Italiano');
      r.serve('3.0.0', 'es.md', big);
      r.serve('3.0.0', 'README.md', '# Default');
      const res = await w.push(token, r.slug, r.body).expect(201);
      const warning = "README locales left out: fr, es (a release's rendered READMEs may total at most 2 MiB of HTML)";
      expect(res.body.warnings).toEqual([warning]);
      expect(await publishWarnings(r.slug)).toEqual([warning]);
      const rows = await storedReadmes(r.slug);
      expect(rows.map((row) => [row.locale, row.position])).toEqual([
        ['de', 0],
        ['it', 1],
        ['default', 2],
      ]);
      expect(rows.reduce((total, row) => total + Buffer.byteLength(row.html), 0)).toBeLessThanOrEqual(2 * MiB);
    });
  });

  describe('search', () => {
    it('makes the README text findable in the catalogue, at the lowest weight', async () => {
      const r = release('github', '1.0.0');
      r.serve('1.0.0', 'README.md', '# Usage\n\nPair it with a *quokkabridge* adapter.\n');
      await w.push(token, r.slug, r.body).expect(201);
      const res = await request(w.app.url).get('/api/plugins?search=quokkabridge').expect(200);
      expect(res.body.plugins.map((p: { slug: string }) => p.slug)).toEqual([r.slug]);
    });
  });

  describe('storage', () => {
    it('stores one row per locale and serves one locale by the resolution rule', async () => {
      const r = release('gitea', '1.0.0', { readmes: { 'pt-BR': 'README.pt-BR.md', de: 'README.de.md' }, readme: 'README.md' });
      r.serve('1.0.0', 'README.pt-BR.md', '# Olá');
      r.serve('1.0.0', 'README.de.md', '# Hallo');
      r.serve('1.0.0', 'README.md', '# Hello');
      await w.push(token, r.slug, r.body).expect(201);
      const [{ id }] = await w.app.database.dataSource.query(
        `SELECT r.id FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1`,
        [r.slug],
      );
      const readmes = w.app.app.get(ReleaseReadmesRepository);
      expect(await readmes.locales(id)).toEqual(['pt-BR', 'de', 'default']);
      expect(await readmes.findForLocale(id, 'pt')).toEqual({ locale: 'pt-BR', html: '<h1>Olá</h1>\n' });
      expect(await readmes.findForLocale(id, 'de-AT')).toEqual({ locale: 'de', html: '<h1>Hallo</h1>\n' });
      expect(await readmes.findForLocale(id, 'ja')).toEqual({ locale: 'default', html: '<h1>Hello</h1>\n' });
      const columns = await w.app.database.dataSource.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'release' AND column_name = 'readme_html'`,
      );
      expect(columns).toEqual([]);
    });
  });
});
