import { CatalogueSearchIndex } from './search-index';
import { catalogueCorpus, deprecatedCorpus } from './testing/catalogue-corpus';
import { naiveMatches, naiveSort } from './testing/naive-catalogue';
import { catalogueQuery, type QueryOptions } from './testing/query-helpers';
import type { CatalogueIndexQuery, SearchDocument } from './types';

const TEXTS = [
  '',
  'mark',
  'markdown',
  'mardown',
  'ma',
  'm',
  'c',
  'theme',
  'thewe',
  'colour dark',
  'zebar',
  'zoom5',
  'docker lint',
  'git',
  'py',
  'quokka',
  'filler',
  'a',
  'data',
  'tool',
  'xylophone',
  'lint markdown files',
  'ünï',
  'early',
];
const FILTERS: QueryOptions[] = [
  {},
  { category: 'Editors' },
  { kind: 'theme' },
  { tag: 'markdown' },
  { tag: 'Markdown' },
  { featured: true },
  { verified: true },
  { ext: { stars: '5' } },
  { ext: { stars: '5.0' } },
  { ext: { platforms: 'linux' } },
  { ext: { platforms: 'linux', stars: '3' } },
  { ext: { beta: 'true' } },
  { ext: { beta: 'false' } },
  { ext: { flag: 'false' } },
  { ext: { ratio: '1.5' } },
  { ext: { mixed: '7' } },
  { ext: { mixed: 'true' } },
  { ext: { mixed: 'null' } },
  { ext: { nested: '{"a":1}' } },
  { ext: { nothing: 'null' } },
  { ext: { label: 'Beta Build' } },
  { kind: 'tool', ext: { platforms: 'mac' } },
  { category: 'Nowhere' },
];
const SORTS = ['relevance', 'updated', 'new', 'name', 'featured'] as const;

function everyQuery(filters = FILTERS): CatalogueIndexQuery[] {
  return TEXTS.flatMap((text) => filters.flatMap((filter) => SORTS.map((sort) => catalogueQuery(text, { ...filter, sort, limit: 1000 }))));
}

/** Enough filters to move every path (none, rare, common, several, unknown) for the slower comparisons. */
const SOME_FILTERS = [FILTERS[0], FILTERS[1], FILTERS[5], FILTERS[9], FILTERS[21], FILTERS[22]];

describe.each([
  ['the default paths', undefined, catalogueCorpus],
  ['every search on bitsets', 0, catalogueCorpus],
  ['every search document by document', Infinity, catalogueCorpus],
  ['every search on bitsets, some plugins deprecated', 0, deprecatedCorpus],
  ['every search document by document, some plugins deprecated', Infinity, deprecatedCorpus],
])('CatalogueSearchIndex agrees with the rules written the slow way (%s)', (_paths, broadShare, corpusOf) => {
  const corpus = corpusOf();
  const deprecated = new Set(corpus.filter((doc) => doc.deprecatedAt != null).map((doc) => doc.id));
  const index = new CatalogueSearchIndex({ broadShare });
  index.build(corpus);

  it('orders by relevance the same on both paths', () => {
    const narrow = new CatalogueSearchIndex({ broadShare: Infinity });
    narrow.build(corpus);
    for (const query of everyQuery(SOME_FILTERS).filter((q) => q.sort === 'relevance')) {
      for (const window of [
        { offset: 0, limit: 1000 },
        { offset: 1, limit: 2 },
      ]) {
        expect({ query, window, page: index.query({ ...query, ...window }) }).toEqual({
          query,
          window,
          page: narrow.query({ ...query, ...window }),
        });
      }
    }
  });

  it('matches the same plugins for every search and filter, totals included, and keeps the sorts', () => {
    for (const query of everyQuery()) {
      const expected = naiveMatches(corpus, query);
      const page = index.query(query);
      expect({ query, total: page.total }).toEqual({ query, total: expected.length });
      if (query.sort === 'relevance' && query.words.length) {
        expect({ query, ids: [...page.ids].sort() }).toEqual({ query, ids: expected.map((doc) => doc.id).sort() });
        // Deprecated plugins sink below every other by relevance too: they end the page.
        const marks = page.ids.map((id) => deprecated.has(id));
        expect({ query, marks }).toEqual({ query, marks: [...marks].sort((a, b) => Number(a) - Number(b)) });
      } else {
        const sort = query.sort === 'relevance' ? 'updated' : query.sort;
        expect({ query, ids: page.ids }).toEqual({ query, ids: naiveSort(expected, sort).map((doc) => doc.id) });
      }
    }
  });

  it('compares extension values as text: 5 and "5" alike, 5.0 not, array members, never objects or nulls', () => {
    const slugs = (ext: Record<string, string>) =>
      index
        .query(catalogueQuery('', { ext }))
        .ids.map((id) => id.slice(3))
        .sort();
    expect(slugs({ stars: '5' })).toEqual(['markdown', 'markdown-lint', 'markdown-preview']);
    expect(slugs({ stars: '5.0' })).toEqual([]);
    expect(slugs({ mixed: '7' })).toEqual(['ext-values']);
    expect(slugs({ mixed: 'true' })).toEqual(['ext-values']);
    expect(slugs({ mixed: 'null' })).toEqual([]);
    expect(slugs({ nested: '{"a":1}' })).toEqual([]);
    expect(slugs({ flag: 'false' })).toEqual(['ext-values']);
  });
});

/** A small deterministic generator, so that a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('CatalogueSearchIndex, several broad words', () => {
  const [template] = catalogueCorpus();
  const doc = (slug: string, name: string, description: string, tags: string[] = [], readme = ''): SearchDocument => ({
    ...template,
    id: `id-${slug}`,
    slug,
    name,
    description,
    tags,
    readme,
    verifiedAt: null,
  });
  const answers = (docs: SearchDocument[], text: string) =>
    [0, 1 / 8, Infinity].map((broadShare) => {
      const index = new CatalogueSearchIndex({ broadShare });
      index.build(docs);
      return index.query(catalogueQuery(text)).ids;
    });

  it('lifts a name the words cover, and the exact name above it, on every path', () => {
    const docs = [
      doc('a-long', 'zeta alpha extra', 'one'),
      doc('b-covered', 'alpha zeta', 'two'),
      doc('c-exact', 'Zeta Alpha', 'three'),
      ...Array.from({ length: 20 }, (_, i) => doc(`filler-${i}`, `filler ${i}`, 'zeta alpha')),
    ];
    for (const ids of answers(docs, 'zeta alpha')) expect(ids.slice(0, 3)).toEqual(['id-c-exact', 'id-b-covered', 'id-a-long']);
  });
});

describe('CatalogueSearchIndex, a broad later word', () => {
  it('scores the survivors from its level bitsets as from its postings', () => {
    const [template] = catalogueCorpus();
    const doc = (slug: string, name: string, description: string, tags: string[] = [], readme = ''): SearchDocument => ({
      ...template,
      id: `id-${slug}`,
      slug,
      name,
      description,
      tags,
      readme,
      verifiedAt: null,
    });
    // "zeta" is rare, "alpha" broad: the second word is looked up in bitsets for the three survivors.
    const docs = [
      doc('zz-five', 'alphabet', 'zeta'),
      doc('four', 'fourth', 'zeta', ['alpha']),
      doc('b-exact', 'second', 'zeta alpha'),
      doc('a-prefix', 'first', 'zeta alphas'),
      doc('three', 'third', 'plain', [], 'alpha zeta'),
      ...Array.from({ length: 20 }, (_, i) => doc(`filler-${i}`, `filler ${i}`, 'padding', [], 'alpha')),
    ];
    const pages = [0, Infinity].map((broadShare) => {
      const index = new CatalogueSearchIndex({ broadShare });
      index.build(docs);
      return index.query(catalogueQuery('zeta alpha')).ids;
    });
    expect(pages[0]).toEqual(['id-zz-five', 'id-b-exact', 'id-four', 'id-a-prefix', 'id-three']);
    expect(pages[1]).toEqual(pages[0]);
  });
});

describe('CatalogueSearchIndex kept current by upserts and removals', () => {
  const sameAnswers = (incremental: CatalogueSearchIndex, docs: SearchDocument[]) => {
    const fresh = new CatalogueSearchIndex();
    fresh.build(docs);
    for (const query of everyQuery(SOME_FILTERS)) {
      for (const window of [
        { offset: 0, limit: 1000 },
        { offset: 2, limit: 3 },
      ]) {
        const windowed = { ...query, ...window };
        expect({ windowed, page: incremental.query(windowed) }).toEqual({ windowed, page: fresh.query(windowed) });
      }
    }
  };

  it.each([1, 2, 3])('answers as an index built from the final documents (seed %d)', (seed) => {
    const rand = random(seed);
    const corpus = catalogueCorpus();
    const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
    const live = new Map(corpus.filter(() => rand() < 0.6).map((doc) => [doc.id, doc]));
    const index = new CatalogueSearchIndex();
    index.build(live.values());
    for (let step = 0; step < 150; step++) {
      const roll = rand();
      if (roll < 0.3 && live.size > 0) {
        const id = pick([...live.keys()]);
        live.delete(id);
        expect(index.remove(id)).toBe(true);
      } else if (roll < 0.6) {
        const doc = pick(corpus);
        live.set(doc.id, doc);
        index.upsert(doc);
      } else {
        // A changed plugin: another's words, flags and times under its own id and slug.
        const base = pick(corpus);
        const other = pick(corpus);
        const doc: SearchDocument = {
          ...base,
          name: rand() < 0.5 ? other.name : base.name,
          description: other.description,
          tags: other.tags,
          readme: other.readme,
          extensions: other.extensions,
          featured: rand() < 0.3,
          verifiedAt: rand() < 0.3 ? Date.UTC(2025, 1, 1) : null,
          deprecatedAt: rand() < 0.25 ? Date.UTC(2025, 2, 1) : null,
          latestReleaseAt: rand() < 0.1 ? null : Date.UTC(2025, 0, 1) + Math.floor(rand() * 5) * 60_000,
        };
        live.set(doc.id, doc);
        index.upsert(doc);
      }
    }
    expect(index.size).toBe(live.size);
    sameAnswers(index, [...live.values()]);
  });

  it('builds in slices to the same index, pausing between them, from an iterable or an async iterable', async () => {
    const corpus = catalogueCorpus();
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const sliced = await CatalogueSearchIndex.buildInSlices(corpus, { sliceMs: 0, pause });
    expect(pauses).toBeGreaterThan(2);
    sameAnswers(sliced, corpus);
    async function* fromDatabase() {
      for (const doc of corpus) yield doc;
    }
    const streamed = await CatalogueSearchIndex.buildInSlices(fromDatabase(), { sliceMs: 0, pause });
    sameAnswers(streamed, corpus);
  });

  it('keeps the last of two documents with the same id in a build', () => {
    const corpus = catalogueCorpus();
    const index = new CatalogueSearchIndex();
    index.build([...corpus, { ...corpus[0], name: 'Renamed', description: null, tags: [] }]);
    expect(index.size).toBe(corpus.length);
    expect(index.query(catalogueQuery('renamed')).ids).toEqual([corpus[0].id]);
    expect(index.query(catalogueQuery('markdown')).ids).not.toContain(corpus[0].id);
  });
});
