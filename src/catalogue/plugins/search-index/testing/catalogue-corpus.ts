import type { SearchDocument } from '../types';

const BASE = Date.UTC(2025, 0, 1);
const MINUTE = 60_000;

interface Seed {
  slug: string;
  name?: string;
  description?: string | null;
  category?: string | null;
  kind?: string | null;
  tags?: string[];
  extensions?: Record<string, unknown> | null;
  readme?: string;
  featured?: boolean;
  verified?: boolean;
  /** Minutes before BASE of the latest release (null: none yet), and of the creation. */
  released?: number | null;
  created?: number;
}

/**
 * A small catalogue written by hand for the search rules: families of near names (markdown, mark,
 * marker, markup, remark; docker, dockerfile; git, github, digit), a word in one field only
 * (name, description, tags, README), verified and featured plugins, extension values of every
 * JSON type, unicode names, and identical fillers whose order only the slug decides.
 */
const SEEDS: Seed[] = [
  {
    slug: 'markdown',
    description: 'Markdown editing helpers',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown'],
    extensions: { stars: 5 },
  },
  {
    slug: 'markdown-preview',
    description: 'Render markdown as you type',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown', 'preview'],
    extensions: { stars: 5, platforms: ['linux', 'mac'] },
  },
  {
    slug: 'markdown-lint',
    description: 'Lint markdown files',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown', 'lint'],
    extensions: { stars: '5' },
  },
  { slug: 'markdown-toc', description: 'Table of contents for markdown', category: 'Editors', kind: 'tool', tags: ['markdown', 'toc'] },
  { slug: 'markdownify', description: 'Convert HTML to markdown', category: 'Editors', kind: 'tool', tags: ['html'] },
  { slug: 'mark-jump', description: 'Jump between marks', category: 'Editors', kind: 'tool', tags: ['navigation'] },
  { slug: 'marker-highlight', description: 'Highlight text with a marker', category: 'Editors', kind: 'tool', tags: ['highlight'] },
  { slug: 'markup-tools', description: 'Tools for markup languages', category: 'Languages', kind: 'language', tags: ['xml'] },
  { slug: 'remark-plugin', description: 'Remark integration', category: 'Editors', kind: 'integration', tags: ['remark'] },
  { slug: 'md-preview', description: 'Preview md files side by side', category: 'Editors', kind: 'tool', tags: ['md'] },
  {
    slug: 'dark-theme',
    description: 'A dark colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['dark'],
    extensions: { stars: 3, platforms: ['linux'] },
    readme: 'Works well with quokka tables.',
    featured: true,
  },
  {
    slug: 'light-theme',
    description: 'A light colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['light'],
    featured: true,
    verified: true,
  },
  { slug: 'solarized-theme', description: 'Solarized colours', category: 'Looks', kind: 'theme', tags: ['solarized'] },
  {
    slug: 'theme-park',
    name: 'Theme Park',
    description: 'Rides through many colour schemes',
    category: 'Looks',
    kind: 'theme',
    tags: ['fun'],
    featured: true,
  },
  { slug: 'park-theme', description: 'A theme for the park', category: 'Looks', kind: 'theme', tags: ['park'] },
  { slug: 'themer', description: 'Generate themes from a palette', category: 'Looks', kind: 'tool', tags: ['palette'] },
  { slug: 'there-and-back', description: 'Navigate there and back again', category: 'Editors', kind: 'tool', tags: ['navigation'] },
  { slug: 'dart-tools', description: 'Dart language support', category: 'Languages', kind: 'language', tags: ['dart'] },
  {
    slug: 'docker',
    description: 'Docker integration',
    category: 'Productivity',
    kind: 'integration',
    tags: ['containers'],
    verified: true,
  },
  { slug: 'docker-compose', description: 'Compose files made easy', category: 'Productivity', kind: 'integration', tags: ['containers'] },
  { slug: 'dockerfile-lint', description: 'Checks your build files', category: 'Testing', kind: 'tool', tags: ['containers'] },
  { slug: 'docker-deploy', description: 'Ship containers to production', category: 'Productivity', kind: 'integration', tags: ['deploy'] },
  {
    slug: 'zebra',
    description: 'Stripes for tables',
    category: 'Editors',
    kind: 'tool',
    tags: ['tables'],
    extensions: { beta: true },
    readme: 'Paints a crosswalk on every grid',
  },
  { slug: 'zebra-stripes', description: 'More stripes', category: 'Looks', kind: 'theme', tags: ['stripes'], verified: true },
  { slug: 'zoom', description: 'Zoom in and out', category: 'Productivity', kind: 'widget', tags: ['view'] },
  { slug: 'zoom-sync', description: 'Keeps the zoom level in step', category: 'Productivity', kind: 'widget', tags: ['view'] },
  { slug: 'git-blame', description: 'Who wrote this line', category: 'Productivity', kind: 'integration', tags: ['git'] },
  {
    slug: 'git-graph',
    description: 'Draws the commit history',
    category: 'Productivity',
    kind: 'widget',
    tags: ['git', 'history'],
    featured: true,
  },
  { slug: 'github-actions', description: 'Run workflows from the editor', category: 'Productivity', kind: 'integration', tags: ['ci'] },
  { slug: 'gitlab-ci', description: 'Pipelines at a glance', category: 'Productivity', kind: 'integration', tags: ['ci'] },
  { slug: 'digit-counter', description: 'Counts the numbers in a file', category: 'Data', kind: 'widget', tags: ['numbers'] },
  { slug: 'python', description: 'Python language support', category: 'Languages', kind: 'language', tags: ['python'] },
  { slug: 'python-lint', description: 'Lint python code', category: 'Testing', kind: 'tool', tags: ['python', 'lint'], verified: true },
  { slug: 'pytest-runner', description: 'Run tests from the gutter', category: 'Testing', kind: 'tool', tags: ['python', 'testing'] },
  { slug: 'c-lang', description: 'C language support', category: 'Languages', kind: 'language', tags: ['c'] },
  { slug: 'x-ray', description: 'See through your code', category: 'Editors', kind: 'tool', tags: ['inspect'] },
  { slug: 'vue3-helper', description: 'Vue 3 snippets', category: 'Languages', kind: 'language', tags: ['vue'] },
  { slug: 'quokka', description: 'A happy marsupial', category: 'Data', kind: 'widget', tags: ['animals'] },
  { slug: 'koala', description: 'Sleeps all day', category: 'Data', kind: 'widget', tags: ['quokka'] },
  { slug: 'wombat', description: 'Friends with every quokka', category: 'Data', kind: 'widget', tags: ['animals'] },
  { slug: 'unicode-tools', name: 'Ünïcode Tools', description: 'Straße and façade', category: 'Data', kind: 'tool', tags: ['unicode'] },
  { slug: 'nihongo', name: '日本語 helper', description: '日本語の入力', category: 'Languages', kind: 'language', tags: ['日本語'] },
  { slug: 'no-release', description: 'Nothing released yet', category: 'Data', kind: 'tool', released: null },
  {
    slug: 'ext-values',
    description: 'Extension values of every type',
    category: 'Data',
    kind: 'tool',
    extensions: {
      flag: false,
      nested: { a: 1 },
      nothing: null,
      ratio: 1.5,
      mixed: ['linux', 7, true, null, { deep: 1 }],
      label: 'Beta Build',
    },
  },
  { slug: 'alpha-beta', name: 'Alpha', description: 'Sorted by name', category: 'Data', kind: 'tool' },
  { slug: 'beta-gamma', name: 'beta', description: 'Sorted by name', category: 'Data', kind: 'tool' },
  { slug: 'gamma-delta', name: 'Gamma', description: 'Sorted by name', category: 'Data', kind: 'tool' },
  {
    // "early", then 120 distinct words (all within 2,000 characters): the first 99 of them are indexed.
    slug: 'long-readme',
    description: 'A README with many words',
    category: 'Data',
    kind: 'tool',
    readme: `early ${Array.from({ length: 120 }, (_, i) => `distinct${i}`).join(' ')} ${'x'.repeat(2100)} lateword`,
  },
  {
    // The 2,000th character falls inside "boundaryword": neither it nor its cut start is indexed.
    slug: 'cut-readme',
    description: 'A README cut at its limit',
    category: 'Data',
    kind: 'tool',
    readme: `${'b '.repeat(996)}boundaryword and more`,
  },
];

/** Identical fillers: their relevance, and their order in every sort, tie; only the slug decides. */
const FILLERS: Seed[] = Array.from({ length: 30 }, (_, i) => ({
  slug: `filler-${String(29 - i).padStart(2, '0')}`,
  name: 'Filler',
  description: 'Padding plugin',
  category: 'Data',
  kind: 'tool',
  tags: ['padding'],
  released: 5000,
  created: 9000,
}));

function toDocument(seed: Seed, index: number): SearchDocument {
  const released = seed.released === undefined ? 10 + index * 7 : seed.released;
  return {
    id: `id-${seed.slug}`,
    slug: seed.slug,
    name: seed.name ?? seed.slug,
    description: seed.description ?? null,
    category: seed.category ?? null,
    kind: seed.kind ?? null,
    tags: seed.tags ?? [],
    extensions: seed.extensions ?? null,
    readme: seed.readme ?? '',
    featured: seed.featured ?? false,
    verifiedAt: seed.verified ? BASE - index * MINUTE : null,
    latestReleaseAt: released === null ? null : BASE - released * MINUTE,
    createdAt: BASE - (seed.created ?? 1000 - index * 13) * MINUTE,
  };
}

export function catalogueCorpus(): SearchDocument[] {
  return [...SEEDS, ...FILLERS].map(toDocument);
}

/** The same catalogue with every third plugin deprecated (verified ones among them): they sink below the rest in every order. */
export function deprecatedCorpus(): SearchDocument[] {
  return catalogueCorpus().map((doc, index) => (index % 3 === 1 ? { ...doc, deprecatedAt: BASE - index * MINUTE } : doc));
}
