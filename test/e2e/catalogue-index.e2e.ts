/**
 * The in-memory catalogue index (docs/performance.md) against the database it mirrors: every
 * filter, sort and page answers what the catalogue's SQL answers, totals exact; a write made behind
 * the API's back (another instance, an operator command) is in the next read; and the search rules
 * hold.
 */
import request from 'supertest';
import { toCatalogueItemDto } from '../../src/catalogue/plugins/catalogue.mapper';
import { CatalogueIndex } from '../../src/catalogue/plugins/catalogue-index';
import { CatalogueIndexRepository } from '../../src/catalogue/plugins/catalogue-index.repository';
import { CatalogueRepository, type CatalogueFilter } from '../../src/catalogue/plugins/catalogue.repository';
import { ResponseCache } from '../../src/platform/response-cache/response-cache';
import { startTestApp, type TestApp } from '../support/test-app';

const KINDS = ['tool', 'theme', 'language'];
const WORDS = ['markdown', 'preview', 'theme', 'dark', 'git', 'lint', 'format', 'terminal', 'docker', 'yaml'];
const slugOf = (i: number) => `${WORDS[i % WORDS.length]}-${WORDS[(i * 3 + 1) % WORDS.length]}-${i}`;

describe('the in-memory catalogue index', () => {
  let app: TestApp;
  const list = (query: string) => request(app.url).get(`/api/plugins${query}`).set('Cache-Control', 'no-cache');
  const slugs = (res: request.Response) => res.body.plugins.map((p: { slug: string }) => p.slug) as string[];
  const sql = () => app.database.dataSource.query.bind(app.database.dataSource);

  beforeAll(async () => {
    app = await startTestApp();
    // 60 plugins whose sort keys tie often, so the tie-breaks are tested too; every fifth is
    // deprecated (verified ones among them), which sinks it in each order.
    for (let i = 0; i < 60; i++) {
      const slug = slugOf(i);
      await sql()(
        `INSERT INTO plugin (slug, name, repo_url, repo_identity, description, category, kind, tags, extensions, featured, verified_at, latest_version, latest_release_at, created_at,
           deprecated_at, deprecation_message)
         VALUES ($1, $1, $2, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, '1.0.0', now() - make_interval(mins => $10), now() - make_interval(mins => $11),
           CASE WHEN $12::boolean THEN now() END, CASE WHEN $12::boolean THEN 'Use another' END)`,
        [
          slug,
          `https://git.example.org/o/${slug}`,
          `A ${WORDS[(i * 7) % WORDS.length]} plugin`,
          i % 2 ? 'Editors' : 'Looks',
          KINDS[i % 3],
          JSON.stringify([WORDS[(i * 5) % WORDS.length]]),
          JSON.stringify({ stars: i % 5, platforms: i % 2 ? ['linux'] : ['linux', 'mac'] }),
          i % 4 === 0,
          i % 6 === 0 ? new Date(Date.now() - i * 1000) : null,
          i % 7,
          i % 9,
          i % 5 === 2,
        ],
      );
    }
    const deadline = Date.now() + 30_000;
    while (!/^registry_search_index_plugins 60$/m.test(await (await fetch(`${app.url}/metrics`)).text())) {
      if (Date.now() > deadline) throw new Error('the catalogue index was not built within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => app?.close());

  it('answers every filter, sort and page as the SQL does, totals included', async () => {
    const repository = new CatalogueRepository(app.database.dataSource);
    const queries: [string, Partial<CatalogueFilter>][] = [];
    for (const sort of ['updated', 'new', 'name', 'featured'] as const) {
      for (const [query, filter] of [
        ['', {}],
        ['&kind=theme', { kind: 'theme' }],
        ['&category=Editors&verified=1', { category: 'Editors', verified: true }],
        ['&featured=1', { featured: true }],
        ['&ext.stars=3', { ext: { stars: '3' } }],
        ['&ext.platforms=mac&kind=tool', { ext: { platforms: 'mac' }, kind: 'tool' }],
        ['&tag=git', { tag: 'git' }],
      ] as [string, Partial<CatalogueFilter>][]) {
        for (const [page, limit] of [
          [1, 20],
          [2, 7],
          [9, 7],
        ]) {
          queries.push([`?sort=${sort}${query}&page=${page}&limit=${limit}`, { ...filter, sort, offset: (page - 1) * limit, limit }]);
        }
      }
    }
    for (const [query, filter] of queries) {
      const served = await list(query).expect(200);
      const expected = await repository.page({
        words: [],
        search: null,
        featured: false,
        verified: false,
        ext: {},
        sort: 'updated',
        offset: 0,
        limit: 20,
        ...filter,
      });
      expect({ query, slugs: slugs(served), total: served.body.total }).toEqual({
        query,
        slugs: expected.plugins.map((p) => p.slug),
        total: expected.total,
      });
    }
  });

  it('holds the search rules', async () => {
    const found = async (terms: string) =>
      (await list(`?search=${encodeURIComponent(terms)}&limit=100`).expect(200)).body.plugins as {
        slug: string;
        name: string;
        description: string;
        tags: string[];
      }[];
    const search = async (terms: string) => (await found(terms)).map((p) => p.slug);
    const words = (p: { name: string; description: string; tags: string[] }) =>
      `${p.name} ${p.description} ${p.tags.join(' ')}`.toLowerCase().split(/[^a-z0-9]+/);
    // An exact name first, then the rest of what matches.
    expect((await search(slugOf(4)))[0]).toBe(slugOf(4));
    // Two letters match word starts, and only word starts.
    const dock = await found('do');
    expect(dock.length).toBeGreaterThan(0);
    for (const plugin of dock) expect(words(plugin).some((word) => word.startsWith('do'))).toBe(true);
    // One edit forgiven in a word of five letters or more, none in a shorter one.
    expect(await search('markdwn')).toEqual(expect.arrayContaining([slugOf(0)]));
    expect(await search('gti')).toEqual([]);
    // Two words combine with AND.
    const both = await found('markdown preview');
    expect(both.length).toBeGreaterThan(0);
    for (const plugin of both) expect([words(plugin).includes('markdown'), words(plugin).includes('preview')]).toEqual([true, true]);
    // A term that names nothing finds nothing.
    expect(await search('zoom5')).toEqual([]);
    // Deprecated plugins last; verified plugins lead the rest, and lead among the deprecated.
    const ranked = (await list('?search=markdown&limit=100').expect(200)).body.plugins as { verified: boolean; deprecated: unknown }[];
    const standing = (p: { verified: boolean; deprecated: unknown }) => (p.deprecated ? 2 : 0) + (p.verified ? 0 : 1);
    expect(ranked.some((p) => p.deprecated) && ranked.some((p) => !p.deprecated)).toBe(true);
    expect(ranked.map(standing)).toEqual([...ranked.map(standing)].sort((a, b) => a - b));
  });

  it('serves list items equal, field for field, to the rows they come from, whether held in memory or read whole', async () => {
    const repository = new CatalogueRepository(app.database.dataSource);
    const rounds = ['held in memory since the index was built', 'read whole after every plugin changed', 'held in memory again'];
    for (const round of rounds) {
      // Every plugin logs a change, so each instance forgets the items it holds.
      if (round === rounds[1]) await sql()(`UPDATE plugin SET updated_at = updated_at + interval '1 millisecond'`);
      await app.app.get(ResponseCache).invalidate();
      for (const query of ['?sort=name&page=1&limit=25', '?sort=new&page=2&limit=25', '?sort=featured&page=3&limit=25']) {
        const served = await list(query).expect(200);
        const [, sort, page] = /sort=(\w+)&page=(\d+)/.exec(query)!;
        const expected = await repository.page({
          words: [],
          search: null,
          featured: false,
          verified: false,
          ext: {},
          sort: sort as CatalogueFilter['sort'],
          offset: (Number(page) - 1) * 25,
          limit: 25,
        });
        expect({ round, query, plugins: served.body.plugins }).toEqual({
          round,
          query,
          plugins: JSON.parse(JSON.stringify(expected.plugins.map(toCatalogueItemDto))),
        });
      }
    }
  });

  it('shows a write to any column a list item shows in the next read, though the item was held in memory', async () => {
    const slug = slugOf(10);
    const item = async () =>
      ((await list('?sort=name&limit=100').expect(200)).body.plugins as Record<string, unknown>[]).find((p) => p.slug === slug)!;
    expect(await item()).toMatchObject({ license: null, icon: null, latestVersion: '1.0.0', downloads: 0 });
    await app.app.get(ResponseCache).invalidate();
    await item(); // read from memory now
    const writes: [string, string, unknown][] = [
      ['license', `license = 'MPL-2.0'`, 'MPL-2.0'],
      ['icon', `icon = 'https://cdn.example/i.png'`, 'https://cdn.example/i.png'],
      ['latestVersion', `latest_version = '2.0.0'`, '2.0.0'],
      ['latestPrerelease', `latest_prerelease = '3.0.0-rc.1'`, '3.0.0-rc.1'],
      ['repoUrl', `repo_url = 'https://git.example.org/moved/${slug}'`, `https://git.example.org/moved/${slug}`],
      ['downloads', 'downloads = downloads + 7', 7],
      ['updatedAt', `updated_at = '2030-01-02T03:04:05Z'`, Date.parse('2030-01-02T03:04:05Z')],
    ];
    for (const [field, assignment, value] of writes) {
      await sql()(`UPDATE plugin SET ${assignment} WHERE slug = $1`, [slug]);
      // A write behind the API's back does not empty the response cache; the API's own writes do.
      await app.app.get(ResponseCache).invalidate();
      expect({ field, value: (await item())[field] }).toEqual({ field, value });
    }
  });

  it('shows a write made behind the API in the next read', async () => {
    await sql()(`UPDATE plugin SET name = 'quokka-renamed', description = 'Now a quokka' WHERE slug = $1`, [slugOf(4)]);
    await sql()(`DELETE FROM plugin WHERE slug = $1`, [slugOf(3)]);
    await sql()(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, latest_release_at) VALUES ('wombat', 'wombat', 'https://git.example.org/o/wombat', 'git.example.org/o/wombat', now())`,
    );
    await app.app.get(ResponseCache).invalidate();
    expect(slugs(await list('?search=quokka').expect(200))).toEqual([slugOf(4)]);
    expect(await slugs(await list(`?search=${WORDS[4]}&limit=100`).expect(200))).not.toContain(slugOf(4));
    expect(slugs(await list('?search=wombat').expect(200))).toEqual(['wombat']);
    const all = await list('?limit=100').expect(200);
    expect(all.body.total).toBe(60);
    expect(slugs(all)).not.toContain(slugOf(3));
    expect(slugs(all)[0]).not.toBe('wombat'); // verified plugins still lead
  });

  it("does not answer with a page it chose before another read applied a change that the page's snapshot holds", async () => {
    const index = app.app.get(CatalogueIndex);
    const repository = app.app.get(CatalogueIndexRepository);
    const manager = app.database.dataSource.manager;
    const filter = { words: [], search: null, sort: 'name' as const, offset: 0, limit: 100 };
    // Chosen before the write...
    const chosen = index.query(filter)!;
    expect(chosen.ids.length).toBeGreaterThan(0);
    await sql()(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, latest_release_at) VALUES ('aardvark', 'aardvark', 'https://git.example.org/o/aardvark', 'git.example.org/o/aardvark', now())`,
    );
    // This page's read is under way (from where the index stood) when another read, or the
    // background pass, applies the write; then this page's feed comes back.
    const reading = index.readPage(chosen.ids, manager, true);
    index.absorb(await repository.changes(index.since, manager));
    const read = await reading;
    expect(read.changes.map((c) => c.doc?.slug)).toContain('aardvark');
    // Nothing in the feed is new to the index, yet the page was chosen without aardvark: stale.
    expect(index.absorb(read, chosen.version)).toBe(false);
    const again = index.query(filter)!;
    expect(index.absorb(await index.readPage(again.ids, manager, true), again.version)).toBe(true);
    await app.app.get(ResponseCache).invalidate();
    expect(slugs(await list('?sort=name&limit=100').expect(200))).toContain('aardvark');
  });
});
