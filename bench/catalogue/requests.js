'use strict';
// The catalogue benchmark's distinct requests: search terms drawn from the seed's own
// vocabulary, random slugs for detail and `latest`, deep list pages. Everything comes from one
// seeded PRNG, so two runs ask the same things in the same order; no path is handed out twice.
const { WORDS, KINDS, CATEGORIES, TEMPLATE_WORDS, EXTENSION_VALUES, ASSET_PLATFORMS } = require('../../scripts/seed-catalogue');

const SEED = 0x5eed_ca7a;
const PAGE_SIZE = 20;
const DEEPEST_PAGE = 500;
const SORTS = ['updated', 'new', 'name', 'featured'];
/** The list scenario's page sizes: null is the default (PAGE_SIZE). */
const LIST_PAGE_SIZES = [null, 15, 25, 30];
/** The spellings `latest` understands for each platform of the seed's assets (src/lib/platform). */
const OS_SPELLINGS = { linux: ['linux'], darwin: ['darwin', 'macos', 'mac', 'osx'], win32: ['win32', 'windows', 'win'] };
const ARCH_SPELLINGS = { x64: ['x64', 'amd64', 'x86_64'], arm64: ['arm64', 'aarch64'] };

/** mulberry32: small, fast, and the same sequence on every machine. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const shuffle = (list) => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return { next, int, pick, shuffle };
}

const ROWS = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Whether the Damerau-Levenshtein (optimal string alignment) distance of a and b is at most `bound`. */
function withinEdits(a, b, bound) {
  if (Math.abs(a.length - b.length) > bound) return false;
  let [before, previous, current] = ROWS;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return false;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] <= bound;
}

/** The distinct words the seed writes into names, descriptions, tags, categories, kinds and READMEs. */
function seedVocabulary() {
  const content = [...new Set([...WORDS, ...KINDS, ...CATEGORIES.map((c) => c.toLowerCase())])];
  const all = [...new Set([...content, ...TEMPLATE_WORDS])];
  return { content, all };
}

const range = (from, to) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * Every term of the listable kinds: single-word prefixes as typed (2 to 8 letters), whole
 * words, one-edit typos (a dropped letter, two letters swapped, one substituted) of words of five
 * letters or more, two whole words, a whole word then the next one's prefix as typed, and the
 * exact name of a plugin.
 */
function listedTerms(vocabulary, names) {
  const words = new Set(vocabulary.all);
  const prefixesOf = (w) => range(2, Math.min(8, w.length - 1)).map((k) => w.slice(0, k));
  const prefixesOfWords = new Set(vocabulary.all.flatMap((w) => range(1, w.length).map((k) => w.slice(0, k))));
  const prefix = [...new Set(vocabulary.all.flatMap(prefixesOf))];
  const typo = new Set();
  for (const w of vocabulary.all.filter((x) => x.length >= 5)) {
    for (let i = 0; i < w.length; i++) {
      typo.add(w.slice(0, i) + w.slice(i + 1));
      if (i + 1 < w.length && w[i] !== w[i + 1]) typo.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
      for (const c of 'abcdefghijklmnopqrstuvwxyz') if (c !== w[i]) typo.add(w.slice(0, i) + c + w.slice(i + 1));
    }
  }
  // A "typo" that spells a word or a prefix of one (markdow) is not a typo.
  for (const t of [...typo]) if (words.has(t) || prefixesOfWords.has(t)) typo.delete(t);
  const pairs = (second) =>
    vocabulary.content.flatMap((a) => vocabulary.all.filter((b) => b !== a).flatMap((b) => second(b).map((tail) => `${a} ${tail}`)));
  const kinds = {
    whole: [...words].filter((w) => w.length >= 2),
    prefix,
    typo: [...typo],
    'two words': pairs((b) => (vocabulary.content.includes(b) ? [b] : [])),
    'prefix after a word': pairs(prefixesOf),
    'exact name': names,
  };
  // A term some kinds share (`language` is a word and a prefix of `languages`) counts as the first.
  const seen = new Set();
  for (const [kind, terms] of Object.entries(kinds)) kinds[kind] = terms.filter((t) => !seen.has(t) && seen.add(t));
  return kinds;
}

/**
 * A pronounceable word that should find nothing: no vocabulary word starts with its first two
 * letters, none is within two edits of it, and no prefix of a word of its length is within one.
 */
function missFactory(vocabulary, random) {
  const starts = new Set(vocabulary.all.map((w) => w.slice(0, 2)));
  const CONSONANTS = 'bdfghjklmnprstvz';
  const VOWELS = 'aeiou';
  return () => {
    for (;;) {
      let word = '';
      const syllables = 2 + random.int(3);
      for (let s = 0; s < syllables; s++)
        word +=
          CONSONANTS[random.int(CONSONANTS.length)] +
          VOWELS[random.int(VOWELS.length)] +
          (random.next() < 0.3 ? CONSONANTS[random.int(CONSONANTS.length)] : '');
      if (starts.has(word.slice(0, 2))) continue;
      if (vocabulary.all.some((w) => withinEdits(word, w, 2) || withinEdits(word, w.slice(0, word.length), 1))) continue;
      return word;
    }
  };
}

/**
 * How often each kind of term is drawn while it lasts. The vocabulary is small, so the scarce
 * kinds (one-word prefixes, whole words) run out after a few hundred terms and the rest share
 * their weight; the benchmark prints the mix actually asked.
 */
const WEIGHTS = { prefix: 25, whole: 8, typo: 18, 'two words': 12, 'prefix after a word': 12, 'exact name': 12, miss: 13 };
/** Kinds plentiful enough to give the warm-up a share too. */
const PLENTIFUL = ['prefix after a word', 'exact name'];

/**
 * Sources of distinct search terms: one for each of `streams` measured scenarios, each with
 * the full mix (every listed term dealt to one of them, alternately, so they get alike shares),
 * and one for the warm-up, of plentiful kinds and misses. Misses are made on demand, never twice.
 */
function searchTermSources(names, streams, seed = SEED) {
  const random = prng(seed);
  const vocabulary = seedVocabulary();
  const dealt = Array.from({ length: streams + 1 }, () => ({}));
  for (const [kind, terms] of Object.entries(listedTerms(vocabulary, names))) {
    const takers = PLENTIFUL.includes(kind) ? streams + 1 : streams;
    random.shuffle(terms).forEach((term, i) => (dealt[i % takers][kind] ??= []).push(term));
  }
  const makeMiss = missFactory(vocabulary, random);
  const misses = new Set();
  const take = (lists, kind) => {
    if (kind !== 'miss') return lists[kind]?.pop() ?? null;
    for (;;) {
      const term = makeMiss();
      if (!misses.has(term)) return misses.add(term) && term;
    }
  };
  const source = (lists, weights) => {
    const live = new Map(Object.entries(weights));
    return {
      /** The next term and its kind, or null when every kind has run out. */
      next() {
        while (live.size) {
          const total = [...live.values()].reduce((x, y) => x + y, 0);
          let at = random.next() * total;
          const kind = [...live.keys()].find((k) => (at -= live.get(k)) < 0) ?? [...live.keys()].pop();
          const term = take(lists, kind);
          if (term !== null) return { term, kind };
          live.delete(kind);
        }
        return null;
      },
    };
  };
  return {
    streams: dealt.slice(0, streams).map((lists) => source(lists, WEIGHTS)),
    warmup: source(dealt[streams], { 'prefix after a word': 1, 'exact name': 1, miss: 1 }),
  };
}

const searchPath = (term, filters = {}) => {
  const query = new URLSearchParams({ search: term, ...filters });
  return `/api/plugins?${query.toString().replace(/\+/g, '%20')}`;
};

/** Filters and a sort for the i-th filtered search: every sort in turn (and relevance), at least one filter. */
function searchFilters(random, i) {
  const filters = {};
  while (Object.keys(filters).length === 0) {
    if (random.next() < 0.5) filters.kind = random.pick(KINDS);
    if (random.next() < 0.3) filters['ext.stars'] = random.pick(EXTENSION_VALUES.stars);
    if (random.next() < 0.3) filters['ext.platforms'] = random.pick(EXTENSION_VALUES.platforms);
    if (random.next() < 0.2) filters.verified = '1';
  }
  const sort = [null, ...SORTS][i % (SORTS.length + 1)];
  if (sort) filters.sort = sort;
  return filters;
}

/**
 * A scenario's requests: `paths` to measure and `warmup` paths, disjoint. `describe(n)` says
 * what the first n measured paths were (the mix of term kinds for search).
 */
function pool(paths, warmup, kinds = null) {
  return {
    paths,
    warmup,
    describe(n) {
      if (!kinds) return '';
      const counts = {};
      for (const kind of kinds.slice(0, n)) counts[kind] = (counts[kind] ?? 0) + 1;
      return Object.entries(counts)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, count]) => `${count} ${kind}`)
        .join(', ');
    },
  };
}

/**
 * Every distinct scenario's requests for a catalogue whose slugs are `slugs`. Search pools hold
 * `searchPaths` paths each (more than a run at the targets asks for: a faster server finishes
 * its pool early and the line says so).
 */
/**
 * The changes feed's pool: random cursors across the whole feed (1..events), each asked once, a
 * page of the default 100 changes after it; a follower catching up asks just this.
 * Warmed on cursors the measured run never asks.
 */
function changesRequests(events, { paths, warmupPaths }) {
  const random = prng(SEED + 2);
  const last = Math.max(0, events - 100);
  const n = Math.min(last, paths + warmupPaths);
  const seen = new Set();
  // Drawn without repeats; rejection is cheap while n is well below the feed's size.
  while (seen.size < n) seen.add(1 + random.int(last));
  const all = [...seen].map((since) => `/api/changes?since=${since}`);
  return pool(all.slice(warmupPaths), all.slice(0, warmupPaths));
}

/**
 * A follower polling at the head: cursors among the newest 100 changes (the head itself too), each
 * with a page size of 1-100, each pair asked once (up to 10,100 distinct paths, so no answer comes
 * from the response cache). The page is short or empty, and `more` must still be known.
 */
function changesAtHeadRequests(events, { warmupPaths }) {
  const random = prng(SEED + 3);
  const all = [];
  for (let back = 0; back <= Math.min(100, events); back++)
    for (let limit = 1; limit <= 100; limit++) all.push(`/api/changes?since=${events - back}&limit=${limit}`);
  for (let i = all.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return pool(all.slice(warmupPaths), all.slice(0, warmupPaths));
}

function distinctRequests(slugs, { searchPaths, warmupPaths }) {
  const random = prng(SEED + 1);
  const terms = searchTermSources(slugs, 2);
  const drawSearch = (source, n, makePath) => {
    const paths = [];
    const kinds = [];
    for (let i = 0; i < n; i++) {
      const drawn = source.next();
      if (!drawn) break;
      paths.push(makePath(drawn.term, i));
      kinds.push(drawn.kind);
    }
    return { paths, kinds };
  };
  const warm = drawSearch(terms.warmup, 2 * warmupPaths, (term) => searchPath(term));
  const plain = drawSearch(terms.streams[0], searchPaths, (term) => searchPath(term));
  const filtered = drawSearch(terms.streams[1], searchPaths, (term, i) => searchPath(term, searchFilters(random, i)));
  // Faceted searches (facets=1): terms and filters from sources of their own, so the pools above stay as they were.
  const facetTerms = searchTermSources(slugs, 2, SEED + 7);
  const facetRandom = prng(SEED + 8);
  const faceted = (filters) => ({ ...filters, facets: '1' });
  const facetWarm = drawSearch(facetTerms.warmup, 2 * warmupPaths, (term) => searchPath(term, faceted({})));
  const facetsPlain = drawSearch(facetTerms.streams[0], searchPaths, (term) => searchPath(term, faceted({})));
  const facetsFiltered = drawSearch(facetTerms.streams[1], searchPaths, (term, i) =>
    searchPath(term, faceted(searchFilters(facetRandom, i))),
  );

  // Detail and latest take disjoint halves of one shuffle: each slug is asked at most once.
  const shuffled = random.shuffle(slugs);
  const warmCount = Math.min(warmupPaths, Math.floor(slugs.length * 0.05));
  const half = Math.floor(shuffled.length / 2);
  // The crowd's plugin pages and `latest` come from the end of each half, kept out of the single-kind pools.
  const crowdDetail = Math.floor(half * CROWD_RESERVE.detail);
  const crowdLatest = Math.floor((shuffled.length - half) * CROWD_RESERVE.latest);
  const detailSlugs = shuffled.slice(0, half - crowdDetail);
  const latestSlugs = shuffled.slice(half, shuffled.length - crowdLatest);
  const detail = (slug) => `/api/plugins/${slug}`;
  const latest = (slug) => {
    const [os, arch] = random.pick(ASSET_PLATFORMS);
    return `/api/plugins/${slug}/latest?os=${random.pick(OS_SPELLINGS[os])}&arch=${random.pick(ARCH_SPELLINGS[arch])}`;
  };

  // Each page size's pages that hold plugins (a smaller catalogue has fewer of them).
  const pagesOf = (limit) => range(1, Math.min(DEEPEST_PAGE, Math.ceil(slugs.length / (limit ?? PAGE_SIZE))));
  const listPaths = (limits) =>
    random.shuffle(
      limits.flatMap((limit) =>
        SORTS.flatMap((sort) => pagesOf(limit).map((page) => `/api/plugins?sort=${sort}&page=${page}${limit ? `&limit=${limit}` : ''}`)),
      ),
    );

  return {
    searchPlain: pool(
      plain.paths,
      warm.paths.filter((_, i) => i % 2 === 0),
      plain.kinds,
    ),
    searchFiltered: pool(
      filtered.paths,
      warm.paths.filter((_, i) => i % 2 === 1).map((p) => `${p}&sort=${random.pick(SORTS)}`),
      filtered.kinds,
    ),
    facetsPlain: pool(
      facetsPlain.paths,
      facetWarm.paths.filter((_, i) => i % 2 === 0),
      facetsPlain.kinds,
    ),
    facetsFiltered: pool(
      facetsFiltered.paths,
      facetWarm.paths.filter((_, i) => i % 2 === 1).map((p) => `${p}&sort=${facetRandom.pick(SORTS)}`),
      facetsFiltered.kinds,
    ),
    detail: pool(detailSlugs.slice(warmCount).map(detail), detailSlugs.slice(0, warmCount).map(detail)),
    latest: pool(latestSlugs.slice(warmCount).map(latest), latestSlugs.slice(0, warmCount).map(latest)),
    // The default page size and three others around it, so the pool outlasts a run of a few
    // seconds; warmed on pages of ten, which no measured request asks for.
    list: pool(listPaths(LIST_PAGE_SIZES), listPaths([10]).slice(0, warmupPaths)),
    crowd: crowdRequests({
      // The crowd's terms are its own, but a term both draw (an exact name, say) asked the same way would repeat a path.
      asked: new Set([plain, filtered, warm].flatMap((x) => x.paths)),
      terms: searchTermSources(slugs, 1, SEED + 9),
      random: prng(SEED + 10),
      detailSlugs: shuffled.slice(half - crowdDetail, half),
      latestSlugs: shuffled.slice(shuffled.length - crowdLatest),
      latest,
      paths: searchPaths,
      warmupPaths,
    }),
    // A crowd of its own for the restart (group `restart`, last), over every slug and its own
    // terms: what the server's life asked before is skipped as the run goes (its ledger).
    restart: crowdRequests({
      asked: new Set([plain, filtered, warm].flatMap((x) => x.paths)),
      terms: searchTermSources(slugs, 1, SEED + 11),
      random: prng(SEED + 12),
      detailSlugs: prng(SEED + 13).shuffle(slugs),
      latestSlugs: prng(SEED + 14).shuffle(slugs),
      latest,
      paths: RESTART_PATHS,
      warmupPaths: 0,
    }),
    deepestPage: pagesOf(null).length,
  };
}

/** Paths drawn for the restart's crowd: beyond what about a minute of it asks. */
const RESTART_PATHS = 200_000;

/** The share of each half of the slugs (detail's, latest's) kept for the crowd: its 30% and 10%. */
const CROWD_RESERVE = { detail: 0.3, latest: 0.1 };
/** What a crowd asks, in proportion: distinct searches, plugin pages, `latest`. */
const CROWD_MIX = { search: 0.6, detail: 0.3, latest: 0.1 };
/** Page sizes a crowd's search asks with (null: the default). */
const CROWD_PAGE_SIZES = [null, null, 10, 15, 25, 30, 50];

/**
 * Real traffic: distinct searches as typed (a third with filters and a sort, with page sizes and
 * now and then a second page), plugin pages on random slugs and `latest` on random slugs and
 * platforms, interleaved about 60/30/10, every path new (slugs and terms of their own, so nothing
 * the single-kind scenarios asked is asked again). Ends when a source runs out.
 */
function crowdRequests({ asked, terms, random, detailSlugs, latestSlugs, latest, paths: wanted, warmupPaths }) {
  const detailLeft = [...detailSlugs];
  const latestLeft = [...latestSlugs];
  const search = (source, i) => {
    for (;;) {
      const drawn = source.next();
      if (!drawn) return null;
      const filters = random.next() < 1 / 3 ? searchFilters(random, i) : {};
      const limit = random.pick(CROWD_PAGE_SIZES);
      if (limit) filters.limit = String(limit);
      if (random.next() < 0.1) filters.page = '2';
      const path = searchPath(drawn.term, filters);
      if (!asked.has(path)) return { path, kind: `search (${drawn.kind})` };
    }
  };
  const draw = (source, n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const r = random.next();
      let next;
      if (r < CROWD_MIX.search) next = search(source, i);
      else if (r < CROWD_MIX.search + CROWD_MIX.detail)
        next = detailLeft.length ? { path: `/api/plugins/${detailLeft.pop()}`, kind: 'detail' } : null;
      else next = latestLeft.length ? { path: latest(latestLeft.pop()), kind: 'latest' } : null;
      if (!next) break;
      out.push(next);
    }
    return out;
  };
  const warm = draw(terms.warmup, warmupPaths);
  const measured = draw(terms.streams[0], wanted);
  return pool(
    measured.map((x) => x.path),
    warm.map((x) => x.path),
    measured.map((x) => (x.kind.startsWith('search') ? 'search' : x.kind)),
  );
}

module.exports = { changesAtHeadRequests, changesRequests, distinctRequests, prng, SEED };
