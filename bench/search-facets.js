'use strict';
// In-process facet-count micro-benchmark (docs/performance.md, facets): the index over N plugins
// (the seed's shapes), then facet counts for ~400 distinct queries (no filter, kind, tag, ext.*,
// narrow and broad searches), p50/p99/max. `FACET_BENCH_TAGS=30000` gives each plugin two tags out
// of that many distinct ones (high cardinality); `FACET_BENCH_CHURN=1` first retags every plugin
// once, leaving as many dead tag values (interned, in no document). One thread, no server.
// `FACET_BENCH_PLUGINS=20000` scales down. Not part of the test suite.
require('../scripts/ts-register');
const { CatalogueSearchIndex } = require('../src/catalogue/plugins/search-index/search-index');
const { searchWords } = require('../src/catalogue/plugins/search-index/tokenize');

const PLUGINS = Number(process.env.FACET_BENCH_PLUGINS ?? 100_000);
const TAGS = Number(process.env.FACET_BENCH_TAGS ?? 0);
const CHURN = process.env.FACET_BENCH_CHURN === '1';
const WORDS = [
  'markdown',
  'preview',
  'theme',
  'dark',
  'light',
  'git',
  'lint',
  'format',
  'snippet',
  'terminal',
  'python',
  'rust',
  'docker',
  'yaml',
  'json',
  'icons',
  'vim',
  'emacs',
  'todo',
  'spell',
  'debug',
  'test',
  'coverage',
  'graph',
  'table',
  'csv',
  'color',
  'font',
  'zoom',
  'sync',
  'cloud',
  'backup',
  'search',
  'regex',
  'diff',
  'merge',
  'branch',
  'deploy',
  'stats',
  'clock',
];
const KINDS = ['tool', 'theme', 'language', 'integration', 'widget'];
const CATEGORIES = ['Editors', 'Looks', 'Languages', 'Productivity', 'Testing', 'Data'];
const NOW = Date.parse('2025-06-01T00:00:00Z');

function seedDoc(i, generation) {
  const word = (k) => WORDS[(i * (7 + k * 6) + k * 13) % WORDS.length];
  const [w1, w2, w3] = [word(0), word(1), word(2)];
  const slug = `${w1}-${w2}-${i}`;
  const tag = (k) => `t${generation}x${(i * 7919 + k * 104729) % TAGS}`;
  return {
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    slug,
    name: slug,
    description: `A ${w2} plugin for ${w1} users, with ${w3} support`,
    category: CATEGORIES[i % CATEGORIES.length],
    kind: KINDS[i % KINDS.length],
    tags: TAGS ? [w1, tag(0), tag(1)] : [w1, w3],
    extensions: { stars: i % 6, platforms: i % 3 === 0 ? ['linux', 'mac'] : ['linux'] },
    readme: '',
    featured: i % 500 === 0,
    verifiedAt: i % 200 === 0 ? NOW : null,
    latestReleaseAt: NOW - i * 60_000,
    createdAt: NOW - i * 120_000,
  };
}

const index = new CatalogueSearchIndex();
const docs = [];
for (let i = 1; i <= PLUGINS; i++) docs.push(seedDoc(i, CHURN ? 0 : 1));
index.build(docs);
if (CHURN) for (let i = 1; i <= PLUGINS; i++) index.upsert(seedDoc(i, 1));

const queries = [];
const filters = [
  {},
  { kind: 'theme' },
  { tag: 'git' },
  { ext: { stars: '3' } },
  { kind: 'tool', ext: { platforms: 'mac' } },
  { category: 'Looks' },
];
const texts = ['', 'ma', 'markdown', 'dark theme', 'git', 'python lint', 'zzzz', 'co', 'terminal 12', 'sync cloud'];
for (const text of texts)
  for (const f of filters)
    for (const sort of ['updated', 'name']) {
      const words = searchWords(text);
      queries.push({ words, search: text, ext: {}, ...f, sort, offset: 0, limit: 20 });
    }
const request = { extensionKeys: ['platforms', 'stars'] };
for (const q of queries) index.facets(q, request); // warm
const times = [];
for (let round = 0; round < 3; round++)
  for (const q of queries) {
    const t0 = process.hrtime.bigint();
    index.facets(q, request);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(3);
console.log(
  `facets: ${PLUGINS} plugins, tags ${TAGS || 'seed'}${CHURN ? ' after churn' : ''}, ${times.length} counts: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times.at(-1).toFixed(3)} ms`,
);
