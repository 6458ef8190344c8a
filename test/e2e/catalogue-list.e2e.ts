import request from 'supertest';
import { ResponseCache } from '../../src/platform/response-cache/response-cache';
import { startTestApp, type TestApp } from '../support/test-app';

interface Seed {
  slug: string;
  description?: string;
  category?: string;
  kind?: string;
  tags?: string[];
  extensions?: Record<string, unknown>;
  readme?: string;
  featured?: boolean;
  verified?: boolean;
  /** Minutes ago of the latest release, and of the creation. */
  released: number;
  created: number;
}

const SEEDS: Seed[] = [
  {
    slug: 'markdown-preview',
    description: 'Render markdown as you type',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown', 'preview'],
    extensions: { stars: 5, platforms: ['linux', 'mac'] },
    released: 10,
    created: 100,
  },
  {
    slug: 'markdown',
    description: 'The markdown plugin',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown'],
    extensions: { stars: '5' },
    verified: true,
    released: 50,
    created: 90,
  },
  {
    slug: 'dark-theme',
    description: 'A dark colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['dark'],
    extensions: { stars: 3, platforms: ['linux'] },
    featured: true,
    released: 5,
    created: 80,
  },
  {
    slug: 'light-theme',
    description: 'A light colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['light'],
    featured: true,
    verified: true,
    released: 70,
    created: 70,
  },
  {
    slug: 'zebra',
    description: 'Stripes for tables',
    category: 'Editors',
    kind: 'tool',
    tags: ['tables'],
    extensions: { beta: true },
    readme: 'Paints a crosswalk on every grid',
    released: 1,
    created: 1,
  },
];

describe('GET /api/plugins', () => {
  let app: TestApp;
  const list = (query = '') => request(app.url).get(`/api/plugins${query}`);
  const slugs = (res: request.Response) => res.body.plugins.map((p: { slug: string }) => p.slug);

  beforeAll(async () => {
    app = await startTestApp();
    for (const seed of SEEDS) {
      await app.database.dataSource.query(
        `INSERT INTO plugin (slug, name, repo_url, repo_identity, description, category, kind, tags, extensions, featured, verified_at, latest_version, latest_release_at, created_at, search_readme)
         VALUES ($1, $1, $2, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, '1.0.0', now() - make_interval(mins => $10), now() - make_interval(mins => $11), $12)`,
        [
          seed.slug,
          `https://git.example.org/o/${seed.slug}`,
          seed.description ?? null,
          seed.category ?? null,
          seed.kind ?? null,
          JSON.stringify(seed.tags ?? []),
          seed.extensions ? JSON.stringify(seed.extensions) : null,
          seed.featured ?? false,
          seed.verified ? new Date() : null,
          seed.released,
          seed.created,
          seed.readme ?? '',
        ],
      );
    }
  });
  afterAll(() => app?.close());

  it('pages the catalogue, verified first, then by latest release', async () => {
    const res = await list().expect(200);
    expect(slugs(res)).toEqual(['markdown', 'light-theme', 'zebra', 'dark-theme', 'markdown-preview']);
    expect(res.body).toMatchObject({ page: 1, limit: 20, total: 5, totalPages: 1 });
    expect(res.body.plugins[0]).toMatchObject({
      slug: 'markdown',
      verified: true,
      verifiedAt: expect.any(Number),
      extensions: { stars: '5' },
      latestVersion: '1.0.0',
    });
  });

  it.each([
    ['?sort=new', ['light-theme', 'markdown', 'zebra', 'dark-theme', 'markdown-preview']],
    ['?sort=name', ['light-theme', 'markdown', 'dark-theme', 'markdown-preview', 'zebra']],
    ['?sort=featured', ['light-theme', 'markdown', 'dark-theme', 'zebra', 'markdown-preview']],
  ])('keeps verified plugins first under %s', async (query, expected) => {
    expect(slugs(await list(query).expect(200))).toEqual(expected);
  });

  it.each([
    ['?category=Looks', ['light-theme', 'dark-theme']],
    ['?tag=markdown', ['markdown', 'markdown-preview']],
    ['?kind=theme&featured=1', ['light-theme', 'dark-theme']],
    ['?verified=1', ['markdown', 'light-theme']],
    ['?ext.stars=5', ['markdown', 'markdown-preview']],
    ['?ext.platforms=linux', ['dark-theme', 'markdown-preview']],
    ['?ext.platforms=linux&ext.stars=3', ['dark-theme']],
    ['?kind=tool&ext.platforms=mac', ['markdown-preview']],
    ['?ext.nothing=x', []],
    ['?ext.stars=5.0', []],
    ['?ext.beta=true', ['zebra']],
    ['?ext.beta=false', []],
  ])('filters %s', async (query, expected) => {
    expect(slugs(await list(query).expect(200))).toEqual(expected);
  });

  it('searches by word prefix, exact name first, and in descriptions and tags', async () => {
    expect(slugs(await list('?search=markdown').expect(200))[0]).toBe('markdown');
    expect(slugs(await list('?search=mark').expect(200)).sort()).toEqual(['markdown', 'markdown-preview']);
    expect(slugs(await list('?search=stripes').expect(200))).toEqual(['zebra']);
    expect(slugs(await list('?search=colour%20dark').expect(200))).toEqual(['dark-theme']);
  });

  it('finds a word only in the README, and a word only in the tags', async () => {
    expect(slugs(await list('?search=crosswalk').expect(200))).toEqual(['zebra']);
    expect(slugs(await list('?search=preview').expect(200))).toEqual(['markdown-preview']);
  });

  it('ranks a name match above a README-only match', async () => {
    await app.database.dataSource.query(`UPDATE plugin SET search_readme = 'works well with zebra tables' WHERE slug = 'dark-theme'`);
    try {
      expect(slugs(await list('?search=zebra').expect(200))).toEqual(['zebra', 'dark-theme']);
    } finally {
      await app.database.dataSource.query(`UPDATE plugin SET search_readme = '' WHERE slug = 'dark-theme'`);
    }
  });

  it('forgives a typo in the name', async () => {
    expect(slugs(await list('?search=mardown').expect(200))[0]).toBe('markdown');
    expect(slugs(await list('?search=zebar').expect(200))).toEqual(['zebra']);
    expect(slugs(await list('?search=qqqqq').expect(200))).toEqual([]);
  });

  it("keeps the whole catalogue's total exact through inserts and deletes without counting rows", async () => {
    const total = async () => (await list('?sort=name').expect(200)).body.total;
    expect(await total()).toBe(SEEDS.length);
    const [{ count }] = await app.database.dataSource.query('SELECT plugins::int AS count FROM plugin_count');
    expect(count).toBe(SEEDS.length);
    await app.database.dataSource.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity) SELECT 'extra-' || i, 'extra-' || i, 'https://git.example.org/x/' || i, 'git.example.org/x/' || i FROM generate_series(1, 3) AS i`,
    );
    await app.database.dataSource.query(`UPDATE plugin SET description = description WHERE slug = 'zebra'`);
    // Written behind the API's back: the response cache is told by hand.
    await app.app.get(ResponseCache).invalidate();
    expect(await total()).toBe(SEEDS.length + 3);
    await app.database.dataSource.query(`DELETE FROM plugin WHERE slug LIKE 'extra-%'`);
    await app.app.get(ResponseCache).invalidate();
    expect(await total()).toBe(SEEDS.length);
  });

  it('pages to the last page and past the end', async () => {
    expect(
      await list('?limit=2&page=3')
        .expect(200)
        .then((r) => [slugs(r), r.body.totalPages]),
    ).toEqual([['markdown-preview'], 3]);
    expect(
      await list('?limit=2&page=9')
        .expect(200)
        .then((r) => [slugs(r), r.body.total]),
    ).toEqual([[], 5]);
    await list('?limit=100').expect(200);
  });

  it.each([['?limit=101'], ['?limit=0'], ['?page=0'], ['?sort=popular'], ['?featured=yes'], ['?color=red'], ['?ext.Bad%20Key=1']])(
    'answers 400 for %s, naming the parameter',
    async (query) => {
      const res = await list(query).expect(400);
      expect(res.body.errors).toHaveLength(1);
    },
  );

  it('sends an ETag and answers 304 to If-None-Match', async () => {
    const first = await list('?sort=name').expect(200);
    await list('?sort=name').set('If-None-Match', first.headers.etag).expect(304);
  });
});
