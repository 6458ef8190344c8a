import { CatalogueSearchIndex } from './search-index';
import { catalogueCorpus } from './testing/catalogue-corpus';
import { search, slugsOf } from './testing/query-helpers';
import type { SearchDocument } from './types';

// Each rule holds on both query paths: bitsets for broad searches, one document at a time for narrow ones.
describe.each([
  ['the default paths', undefined],
  ['every search on bitsets', 0],
  ['every search document by document', Infinity],
])('CatalogueSearchIndex: the search rules on a hand-written corpus (%s)', (_paths, broadShare) => {
  const corpus = catalogueCorpus();
  const bySlug = new Map(corpus.map((doc) => [doc.slug, doc]));
  let index: CatalogueSearchIndex;
  const slugs = (text: string, options = {}) => slugsOf(index, text, options);
  const verified = (slug: string) => bySlug.get(slug)?.verifiedAt != null;

  beforeAll(() => {
    index = new CatalogueSearchIndex({ broadShare });
    index.build(corpus);
  });

  describe('an exact name first', () => {
    it('puts the plugin named exactly as the search first, whatever its case', () => {
      expect(slugs('markdown')[0]).toBe('markdown');
      expect(slugs('MarkDown')[0]).toBe('markdown');
      expect(slugs('  markdown ')[0]).toBe('markdown');
    });

    it('puts an exact display name above a name with the same words in another order', () => {
      // "park-theme" scores the same on the words and sorts first by slug: only the exact name lifts "Theme Park".
      expect(slugs('theme park').slice(0, 2)).toEqual(['theme-park', 'park-theme']);
      expect(slugs('park theme').slice(0, 2)).toEqual(['park-theme', 'theme-park']);
    });

    it('ranks a name made of exactly the searched words above longer names', () => {
      expect(slugs('zoom')).toEqual(['zoom', 'zoom-sync']);
      expect(slugs('docker deploy')[0]).toBe('docker-deploy');
    });
  });

  describe('prefixes from two letters match word starts', () => {
    it('matches the start of any word, never its middle', () => {
      expect(slugs('mark').sort()).toEqual(
        [
          'mark-jump',
          'marker-highlight',
          'markdown',
          'markdown-lint',
          'markdown-preview',
          'markdown-toc',
          'markdownify',
          'markup-tools',
        ].sort(),
      );
      expect(slugs('mark')).not.toContain('remark-plugin');
      expect(slugs('git').sort()).toEqual(['git-blame', 'git-graph', 'github-actions', 'gitlab-ci']);
    });

    it('matches from two letters', () => {
      expect(slugs('zo').sort()).toEqual(['zoom', 'zoom-sync']);
      expect(slugs('py')).toEqual(expect.arrayContaining(['python', 'python-lint', 'pytest-runner']));
    });

    it('matches a one-letter word only as a whole word', () => {
      expect(slugs('c')).toEqual(['c-lang']);
      expect(slugs('x')).toEqual(['x-ray']);
      expect(slugs('q')).toEqual([]);
    });

    it('splits names on hyphens and reads digits as letters', () => {
      expect(slugs('lang')[0]).toBe('c-lang');
      expect(slugs('ray')).toEqual(['x-ray']);
      expect(slugs('vue3')).toEqual(['vue3-helper']);
      expect(slugs('vue')).toEqual(['vue3-helper']);
    });

    it('reads unicode words', () => {
      expect(slugs('ünï')).toEqual(['unicode-tools']);
      expect(slugs('STRASSE')).toEqual([]);
      expect(slugs('straße')).toEqual(['unicode-tools']);
      expect(slugs('日本')).toEqual(['nihongo']);
    });
  });

  describe('one edit forgiven in words of five letters or more', () => {
    it.each([
      ['mardown', 'a dropped letter'],
      ['markdwon', 'two letters swapped'],
      ['marjdown', 'a letter substituted'],
      ['markdowns', 'a letter added'],
    ])('finds markdown from %s (%s)', (typo) => {
      const found = slugs(typo);
      expect(found.sort()).toEqual(['markdown', 'markdown-lint', 'markdown-preview', 'markdown-toc', 'markdownify']);
    });

    it('finds names, with the exact name still first', () => {
      expect(slugs('zebar')).toEqual(['zebra-stripes', 'zebra']);
      expect(slugs('dokcer')[0]).toBe('docker');
      expect(slugs('pyhton')).toEqual(expect.arrayContaining(['python', 'python-lint', 'pytest-runner']));
    });

    it('forgives nothing in a word under five letters, nor towards one', () => {
      expect(search(index, 'drak')).toEqual({ slugs: [], total: 0 });
      expect(search(index, 'zoomm')).toEqual({ slugs: [], total: 0 });
      expect(search(index, 'zoom5')).toEqual({ slugs: [], total: 0 });
    });

    it('does not blur a word that exists into its neighbours', () => {
      // "there" is one edit from "theme", and both are words of the corpus.
      expect(slugs('theme')).not.toContain('there-and-back');
      expect(slugs('there')).toEqual(['there-and-back']);
      // A misspelling of both is forgiven towards both.
      expect(slugs('thewe')).toEqual(expect.arrayContaining(['there-and-back', 'dark-theme', 'light-theme']));
    });

    it('returns nothing for a term that names nothing', () => {
      expect(search(index, 'qqqqq')).toEqual({ slugs: [], total: 0 });
      expect(search(index, 'xylophone')).toEqual({ slugs: [], total: 0 });
      expect(search(index, 'vue4')).toEqual({ slugs: [], total: 0 });
    });
  });

  describe('two words combine with AND, each in any field', () => {
    it('needs every word, found in the name, description, tags, category, kind or README', () => {
      expect(slugs('colour dark')).toEqual(['dark-theme']);
      expect(slugs('dark quokka')).toEqual(['dark-theme']);
      expect(slugs('docker lint')).toEqual(['dockerfile-lint']);
      expect(slugs('python testing')).toEqual(['python-lint', 'pytest-runner']);
      expect(slugs('looks theme').sort()).toEqual(
        ['dark-theme', 'light-theme', 'park-theme', 'solarized-theme', 'theme-park', 'themer', 'zebra-stripes'].sort(),
      );
    });

    it('returns nothing when one word names nothing', () => {
      expect(search(index, 'markdown xylophone')).toEqual({ slugs: [], total: 0 });
      expect(search(index, 'markdown zoom')).toEqual({ slugs: [], total: 0 });
    });

    it('forgives a typo in either word', () => {
      expect(slugs('mardown lint')).toEqual(['markdown-lint']);
    });
  });

  describe('README text ranks below name, description and tags', () => {
    it('orders a name match, then description and tag matches, then a README-only match', () => {
      expect(slugs('quokka')).toEqual(['quokka', 'koala', 'wombat', 'dark-theme']);
    });

    it('finds a word only in the README', () => {
      expect(slugs('crosswalk')).toEqual(['zebra']);
    });

    it('indexes the distinct words of the first 2,000 characters only, at most 100 of them', () => {
      expect(slugs('early')).toEqual(['long-readme']);
      expect(slugs('distinct0')).toEqual(['long-readme']);
      expect(slugs('distinct98')).toEqual(['long-readme']);
      expect(slugs('distinct99')).toEqual([]);
      expect(slugs('lateword')).toEqual([]);
    });

    it('leaves out a word the limit cuts in two', () => {
      expect(slugs('b')).toEqual(['cut-readme']);
      expect(slugs('boundary')).toEqual([]);
    });
  });

  describe('verified plugins lead every order', () => {
    const leads = (found: string[]) => {
      const firstUnverified = found.findIndex((slug) => !verified(slug));
      return firstUnverified === -1 || found.slice(firstUnverified).every((slug) => !verified(slug));
    };

    it.each(['relevance', 'updated', 'new', 'name', 'featured'] as const)('under sort=%s, with and without a search', (sort) => {
      expect(leads(slugs('', { sort: sort === 'relevance' ? 'updated' : sort }))).toBe(true);
      const themed = slugs('theme', { sort });
      expect(themed.slice(0, 2).sort()).toEqual(['light-theme', 'zebra-stripes']);
      expect(leads(themed)).toBe(true);
      expect(leads(slugs('zebra', { sort }))).toBe(true);
    });

    it('even above an exact name, as the SQL orders (verified_at IS NULL first)', () => {
      expect(slugs('zebra')).toEqual(['zebra-stripes', 'zebra']);
      expect(slugs('python')).toEqual(['python-lint', 'python', 'pytest-runner']);
    });
  });

  describe('totals and pages', () => {
    it.each([['mark'], ['theme'], [''], ['a'], ['filler']])('counts exactly and pages without gaps or repeats for %j', (text) => {
      const all = search(index, text, { limit: 100 });
      expect(all.total).toBe(all.slugs.length);
      const paged: string[] = [];
      for (let offset = 0; offset < all.total + 3; offset += 3) {
        const page = search(index, text, { offset, limit: 3 });
        expect(page.total).toBe(all.total);
        paged.push(...page.slugs);
      }
      expect(paged).toEqual(all.slugs);
    });

    it('answers past the end with no plugins and the same total', () => {
      const { total } = search(index, 'mark');
      expect(search(index, 'mark', { offset: 500, limit: 20 })).toEqual({ slugs: [], total });
      expect(search(index, '', { offset: 5000, limit: 20 })).toEqual({ slugs: [], total: corpus.length });
      expect(search(index, 'mark', { limit: 0 })).toEqual({ slugs: [], total });
    });

    it('breaks ties by slug, ascending', () => {
      const fillers = corpus
        .filter((doc) => doc.slug.startsWith('filler-'))
        .map((doc) => doc.slug)
        .sort();
      expect(slugs('filler')).toEqual(fillers);
      expect(slugs('padding', { sort: 'updated' })).toEqual(fillers);
      expect(slugs('padding', { sort: 'name' })).toEqual(fillers);
      expect(slugs('', { tag: 'padding', sort: 'new' })).toEqual(fillers);
    });
  });

  describe('incremental changes', () => {
    const doc = (slug: string): SearchDocument => ({ ...(bySlug.get(slug) as SearchDocument) });

    it('replaces what it held of a plugin on upsert, and forgets it on remove', () => {
      const local = new CatalogueSearchIndex({ broadShare });
      local.build(corpus);
      local.upsert({ ...doc('zoom'), name: 'Magnifier', slug: 'zoom', description: 'Bigger text', tags: [] });
      expect(slugsOf(local, 'zoom')).toEqual(['zoom-sync']);
      expect(slugsOf(local, 'magnifier')).toEqual(['zoom']);
      expect(local.remove('id-zoom-sync')).toBe(true);
      expect(local.remove('id-zoom-sync')).toBe(false);
      expect(slugsOf(local, 'zoom')).toEqual([]);
      expect(search(local, '').total).toBe(corpus.length - 1);
      expect(local.size).toBe(corpus.length - 1);
      expect(local.has('id-zoom-sync')).toBe(false);
    });

    it('learns new words and forgives typos in them', () => {
      const local = new CatalogueSearchIndex({ broadShare });
      local.build(corpus);
      local.upsert({ ...doc('zoom'), id: 'id-kangaroo', slug: 'kangaroo', name: 'kangaroo', verifiedAt: null });
      expect(slugsOf(local, 'kangaroo')).toEqual(['kangaroo']);
      expect(slugsOf(local, 'kangaro')).toEqual(['kangaroo']);
      expect(slugsOf(local, 'kagnaroo')).toEqual(['kangaroo']);
    });

    it('moves a plugin in every order when its keys change', () => {
      const local = new CatalogueSearchIndex({ broadShare });
      local.build(corpus);
      local.upsert({ ...doc('zoom'), latestReleaseAt: Date.UTC(2030, 0, 1), featured: true });
      expect(slugsOf(local, '', { sort: 'updated' }).indexOf('zoom')).toBe(slugsOf(local, '', { verified: true }).length);
      local.upsert({ ...doc('zoom'), verifiedAt: Date.UTC(2030, 0, 1), latestReleaseAt: Date.UTC(2030, 0, 1) });
      expect(slugsOf(local, '', { sort: 'updated' })[0]).toBe('zoom');
      expect(slugsOf(local, '', { verified: true })).toContain('zoom');
    });

    it('sinks a deprecated plugin below every other in each sort and by relevance, and lifts it back when undone', () => {
      const local = new CatalogueSearchIndex({ broadShare });
      local.build(corpus);
      const markdown = doc('markdown');
      expect(slugsOf(local, 'markdown')[0]).toBe('markdown');
      local.upsert({ ...markdown, verifiedAt: Date.UTC(2030, 0, 1), featured: true, deprecatedAt: Date.UTC(2030, 0, 2) });
      for (const sort of ['updated', 'new', 'name', 'featured'] as const) {
        const all = slugsOf(local, '', { sort });
        expect({ sort, at: all.indexOf('markdown') }).toEqual({ sort, at: all.length - 1 });
      }
      // Even the exact name of a verified plugin comes after every other match.
      const found = slugsOf(local, 'markdown');
      expect(found.length).toBeGreaterThan(1);
      expect(found[found.length - 1]).toBe('markdown');
      expect(slugsOf(local, 'markdown', { sort: 'featured' }).slice(-1)).toEqual(['markdown']);
      local.upsert({ ...markdown, deprecatedAt: null });
      expect(slugsOf(local, 'markdown')[0]).toBe('markdown');
      expect(slugsOf(local, '', { sort: 'name' })).toEqual(slugsOf(index, '', { sort: 'name' }));
    });
  });

  it('reports its memory', () => {
    const empty = new CatalogueSearchIndex({ broadShare });
    expect(index.approximateBytes()).toBeGreaterThan(empty.approximateBytes());
  });
});
