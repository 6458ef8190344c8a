import fc from 'fast-check';
import { CatalogueSearchIndex } from './search-index';
import { catalogueCorpus } from './testing/catalogue-corpus';
import { extensionTexts, naiveMatches } from './testing/naive-catalogue';
import { catalogueQuery, type QueryOptions } from './testing/query-helpers';
import type { FacetPath } from './facet-counter';
import { FACET_LIMIT, TAG_FACET_LIMIT, type FacetCounts } from './facet-dimensions';
import type { CatalogueIndexQuery, SearchDocument } from './types';

const distinct = (values: string[]): string[] => [...new Set(values)];

/** The facets written the slow way: for each dimension, the query without its own filter, tallied value by value. */
function naiveFacets(
  corpus: SearchDocument[],
  query: CatalogueIndexQuery,
  extensionKeys: string[],
  limit = FACET_LIMIT,
  tagLimit = TAG_FACET_LIMIT,
): FacetCounts {
  const dimensions: Array<{ name: string; selected?: string; without: CatalogueIndexQuery; values: (doc: SearchDocument) => string[] }> = [
    { name: 'kind', selected: query.kind, without: { ...query, kind: undefined }, values: (doc) => (doc.kind ? [doc.kind] : []) },
    {
      name: 'category',
      selected: query.category,
      without: { ...query, category: undefined },
      values: (doc) => (doc.category ? [doc.category] : []),
    },
    { name: 'tags', selected: query.tag, without: { ...query, tag: undefined }, values: (doc) => distinct([...doc.tags]) },
    ...extensionKeys.map((key) => {
      const ext = { ...query.ext };
      delete ext[key];
      return {
        name: `ext.${key}`,
        selected: query.ext?.[key],
        without: { ...query, ext },
        values: (doc: SearchDocument) => distinct(extensionTexts(doc.extensions?.[key])),
      };
    }),
  ];
  const facets: FacetCounts = {};
  for (const d of dimensions) {
    const counts = new Map<string, number>();
    for (const doc of naiveMatches(corpus, d.without)) for (const value of d.values(doc)) counts.set(value, (counts.get(value) ?? 0) + 1);
    const all = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const top = all.slice(0, d.name === 'tags' ? tagLimit : limit);
    if (d.selected !== undefined && !top.some((v) => v.value === d.selected))
      top.push({ value: d.selected, count: counts.get(d.selected) ?? 0 });
    facets[d.name] = top;
  }
  return facets;
}

const PATHS: Array<[string, { broadShare?: number; facetPath: FacetPath }]> = [
  ['auto', { facetPath: 'auto' }],
  ['narrow sets counted narrow', { broadShare: Infinity, facetPath: 'narrow' }],
  ['narrow sets counted broad', { broadShare: Infinity, facetPath: 'broad' }],
  ['bitset sets counted narrow', { broadShare: 0, facetPath: 'narrow' }],
  ['bitset sets counted broad', { broadShare: 0, facetPath: 'broad' }],
];

describe('facets on the hand-written catalogue', () => {
  const corpus = catalogueCorpus();
  const QUERIES: Array<[string, QueryOptions]> = [
    ['', {}],
    ['', { kind: 'theme' }],
    ['', { kind: 'theme', category: 'Looks' }],
    ['markdown', {}],
    ['markdown', { tag: 'markdown' }],
    ['mardown', { kind: 'tool' }],
    ['', { ext: { stars: '5' } }],
    ['', { ext: { platforms: 'linux', stars: '3' } }],
    ['theme', { featured: true }],
    ['', { category: 'Nowhere' }],
    ['zzzz', {}],
    ['', { kind: 'nothing-like-this' }],
  ];
  const keys = ['stars', 'platforms', 'beta', 'mixed', 'undeclared'];

  it.each(PATHS)('counts each value over the search and the other filters (%s)', (_name, options) => {
    const index = new CatalogueSearchIndex(options);
    index.build(corpus);
    for (const [text, filters] of QUERIES) {
      const query = catalogueQuery(text, filters);
      expect({ query, facets: index.facets(query, { extensionKeys: keys }) }).toEqual({ query, facets: naiveFacets(corpus, query, keys) });
    }
  });

  it('keeps the selected value beside its siblings, leaves out zeros, orders by count then value', () => {
    const index = new CatalogueSearchIndex();
    index.build(corpus);
    const facets = index.facets(catalogueQuery('', { kind: 'theme', category: 'Looks' }), { extensionKeys: ['stars'] });
    // Kind over category=Looks: themes and the one tool; category over kind=theme: Looks only.
    expect(facets.kind).toEqual([
      { value: 'theme', count: 6 },
      { value: 'tool', count: 1 },
    ]);
    expect(facets.category).toEqual([{ value: 'Looks', count: 6 }]);
    expect(facets['ext.stars']).toEqual([{ value: '3', count: 1 }]);
    // A selected value nothing carries is still listed, with 0, so the page can offer to clear it.
    expect(index.facets(catalogueQuery('', { kind: 'nothing-like-this' }), { extensionKeys: [] }).kind.at(-1)).toEqual({
      value: 'nothing-like-this',
      count: 0,
    });
  });

  it('keeps the top values of each dimension', () => {
    const index = new CatalogueSearchIndex();
    index.build(corpus);
    const facets = index.facets(catalogueQuery(''), { extensionKeys: [], limit: 2, tagLimit: 3 });
    expect(facets.kind).toHaveLength(2);
    expect(facets.tags).toHaveLength(3);
    expect(facets).toEqual(naiveFacets(corpus, catalogueQuery(''), [], 2, 3));
  });
});

/** A small deterministic generator, so that a failing case replays from its seed. */
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

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'zeta', 'kappa'];
const KINDS = ['tool', 'theme', 'widget'];
const CATEGORIES = ['Data', 'Looks', 'Editors', 'Testing'];
const TAGS = ['red', 'green', 'blue', 'cyan', 'teal', 'gold'];

/** A catalogue of `size` plugins; values skewed so that some are common (bitsets from 1,024 documents) and some rare. */
function randomCatalogue(seed: number, size: number): SearchDocument[] {
  const rand = random(seed);
  const skewed = <T>(list: T[]): T => list[Math.floor(rand() * rand() * list.length)];
  return Array.from({ length: size }, (_, i) => ({
    id: `id-${i}`,
    slug: `plugin-${i}`,
    name: `${skewed(WORDS)} ${i}`,
    description: rand() < 0.8 ? `${skewed(WORDS)} ${skewed(WORDS)}` : null,
    category: rand() < 0.9 ? skewed(CATEGORIES) : null,
    kind: rand() < 0.95 ? skewed(KINDS) : null,
    tags: Array.from({ length: Math.floor(rand() * 4) }, () => skewed(TAGS)),
    extensions:
      rand() < 0.85
        ? { level: Math.floor(rand() * rand() * 5), beta: rand() < 0.3, os: rand() < 0.5 ? ['linux', 'mac'] : ['linux'] }
        : null,
    readme: rand() < 0.3 ? `${skewed(WORDS)} readme` : '',
    featured: rand() < 0.2,
    verifiedAt: rand() < 0.1 ? 1 : null,
    latestReleaseAt: i,
    createdAt: i,
  }));
}

const queryArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS, 'al', 'gam', 'readme', 'omegq'), { maxLength: 2 }),
  kind: fc.option(fc.constantFrom(...KINDS, 'none'), { nil: undefined }),
  category: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
  tag: fc.option(fc.constantFrom(...TAGS), { nil: undefined }),
  featured: fc.option(fc.constant(true), { nil: undefined }),
  level: fc.option(fc.constantFrom('0', '1', '3'), { nil: undefined }),
  beta: fc.option(fc.constantFrom('true', 'false'), { nil: undefined }),
  os: fc.option(fc.constantFrom('linux', 'mac'), { nil: undefined }),
});

describe('facets on random catalogues agree with the slow reference on every path', () => {
  const keys = ['level', 'beta', 'os', 'nowhere'];
  it.each([
    [60, 30],
    [2600, 6],
  ])('%d plugins', (size, runs) => {
    const corpus = randomCatalogue(size, size);
    const indexes = PATHS.map(([, options]) => {
      const index = new CatalogueSearchIndex(options);
      index.build(corpus);
      return index;
    });
    fc.assert(
      fc.property(queryArbitrary, (q) => {
        const ext: Record<string, string> = {};
        if (q.level !== undefined) ext.level = q.level;
        if (q.beta !== undefined) ext.beta = q.beta;
        if (q.os !== undefined) ext.os = q.os;
        const query: CatalogueIndexQuery = {
          words: q.words,
          search: q.words.join(' '),
          kind: q.kind,
          category: q.category,
          tag: q.tag,
          featured: q.featured,
          ext,
          sort: 'updated',
          offset: 0,
          limit: 10,
        };
        const expected = naiveFacets(corpus, query, keys);
        for (const index of indexes) expect(index.facets(query, { extensionKeys: keys })).toEqual(expected);
      }),
      { numRuns: runs, seed: size },
    );
  });

  it('stays right as plugins are removed and replaced', () => {
    const corpus = randomCatalogue(7, 1500);
    const live = new Map(corpus.map((doc) => [doc.id, doc]));
    const indexes = PATHS.map(([, options]) => {
      const index = new CatalogueSearchIndex(options);
      index.build(corpus);
      return index;
    });
    const rand = random(99);
    const replacements = randomCatalogue(8, 1500);
    for (let step = 0; step < 400; step++) {
      const doc = corpus[Math.floor(rand() * corpus.length)];
      if (rand() < 0.4) {
        live.delete(doc.id);
        for (const index of indexes) index.remove(doc.id);
      } else {
        const changed = { ...replacements[Math.floor(rand() * replacements.length)], id: doc.id, slug: doc.slug };
        live.set(doc.id, changed);
        for (const index of indexes) index.upsert(changed);
      }
    }
    const docs = [...live.values()];
    for (const filters of [{ kind: 'tool' }, { tag: 'red', ext: { os: 'mac' } }] as QueryOptions[]) {
      for (const text of ['', 'gam']) {
        const query = catalogueQuery(text, filters);
        const expected = naiveFacets(docs, query, ['os', 'level']);
        for (const index of indexes) expect(index.facets(query, { extensionKeys: ['os', 'level'] })).toEqual(expected);
      }
    }
  });

  it('leaves out values whose last plugin left, and counts them again when one comes back', () => {
    // Many values, each in few plugins: a value dies when its plugins are removed or retagged.
    const corpus = randomCatalogue(11, 1200).map((doc, i) => ({
      ...doc,
      tags: [`only-${i % 400}`, ...doc.tags],
      kind: i % 3 ? doc.kind : `kind-${i % 50}`,
    }));
    const live = new Map(corpus.map((doc) => [doc.id, doc]));
    const indexes = PATHS.map(([, options]) => {
      const index = new CatalogueSearchIndex(options);
      index.build(corpus);
      return index;
    });
    const queries = [
      catalogueQuery(''),
      catalogueQuery('gam'),
      catalogueQuery('', { tag: 'only-7' }),
      catalogueQuery('', { kind: 'kind-3' }),
      catalogueQuery('', { ext: { os: 'mac' } }),
    ];
    const check = () => {
      const docs = [...live.values()];
      for (const query of queries) {
        const expected = naiveFacets(docs, query, ['os'], 20, 500);
        for (const index of indexes) expect(index.facets(query, { extensionKeys: ['os'], tagLimit: 500 })).toEqual(expected);
      }
    };
    check();
    // Every plugin carrying only-0..only-199 or a kind-N goes: removed, or retagged and rekinded.
    corpus.forEach((doc, i) => {
      if (i % 400 >= 200 && i % 3) return;
      if (i % 2) {
        live.delete(doc.id);
        for (const index of indexes) index.remove(doc.id);
      } else {
        const changed = { ...doc, tags: doc.tags.slice(1), kind: 'tool' };
        live.set(doc.id, changed);
        for (const index of indexes) index.upsert(changed);
      }
    });
    check();
    for (const index of indexes)
      expect(
        index.facets(catalogueQuery(''), { extensionKeys: [], tagLimit: 500 }).tags.some((v) => /^only-(\d|1\d\d)$/.test(v.value)),
      ).toBe(false);
    // Some come back: the dead values they carry count again (counted in between, so they were dropped first).
    for (const doc of corpus.slice(0, 30)) {
      live.set(doc.id, doc);
      for (const index of indexes) index.upsert(doc);
    }
    check();
  });
});
