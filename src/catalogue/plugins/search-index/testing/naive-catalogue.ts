import { typoEligible, withinOneEdit } from '../typo-dictionary';
import type { CatalogueIndexQuery, SearchDocument } from '../types';

/**
 * The catalogue rules written the slow, obvious way, to check the index against: which plugins
 * a query matches (words and filters), and the kept sorts' order.
 */
const words = (text: string | null): string[] => (text ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function readmeWords(readme: string): string[] {
  let start = readme.slice(0, 2000);
  if (readme.length > 2000 && /[\p{L}\p{N}]/u.test(readme.slice(2000, 2002))) start = start.replace(/[\p{L}\p{N}]+$/u, '');
  const distinct: string[] = [];
  for (const word of words(start)) {
    if (word.length > 32 || distinct.includes(word)) continue;
    distinct.push(word);
    if (distinct.length === 100) break;
  }
  return distinct;
}

const upperWords = (doc: SearchDocument): string[] => [
  ...words(doc.name),
  ...words(doc.description),
  ...doc.tags.flatMap(words),
  ...words(doc.category),
  ...words(doc.kind),
];

export function extensionTexts(value: unknown): string[] {
  const scalar = (v: unknown) => (typeof v === 'string' ? [v] : typeof v === 'number' || typeof v === 'boolean' ? [String(v)] : []);
  return Array.isArray(value) ? value.flatMap(scalar) : scalar(value);
}

const tokenCache = new WeakMap<SearchDocument[], { upper: Set<string>; all: Map<SearchDocument, Set<string>> }>();

function tokens(corpus: SearchDocument[]): { upper: Set<string>; all: Map<SearchDocument, Set<string>> } {
  let cached = tokenCache.get(corpus);
  if (!cached) {
    cached = {
      upper: new Set(corpus.flatMap(upperWords)),
      all: new Map(corpus.map((doc) => [doc, new Set([...upperWords(doc), ...readmeWords(doc.readme)])])),
    };
    tokenCache.set(corpus, cached);
  }
  return cached;
}

export function naiveMatches(corpus: SearchDocument[], query: CatalogueIndexQuery): SearchDocument[] {
  const { upper: upperVocabulary, all: allTokens } = tokens(corpus);
  const matchesWord = (doc: SearchDocument, word: string): boolean => {
    const all = allTokens.get(doc) as Set<string>;
    if (word.length === 1) return all.has(word);
    if ([...all].some((token) => token.startsWith(word))) return true;
    if (!typoEligible(word) || [...upperVocabulary].some((token) => token.startsWith(word))) return false;
    return [...all].some((token) => upperVocabulary.has(token) && typoEligible(token) && token !== word && withinOneEdit(word, token));
  };
  return corpus.filter(
    (doc) =>
      query.words.every((word) => matchesWord(doc, word)) &&
      (!query.category || doc.category === query.category) &&
      (!query.tag || doc.tags.includes(query.tag)) &&
      (!query.kind || doc.kind === query.kind) &&
      (!query.featured || doc.featured) &&
      (!query.verified || doc.verifiedAt != null) &&
      Object.entries(query.ext ?? {}).every(([key, value]) => extensionTexts(doc.extensions?.[key]).includes(value)),
  );
}

const millis = (value: Date | number | null): number => (value === null ? -Infinity : +value);
const descending = (a: number, b: number) => (a === b ? 0 : a > b ? -1 : 1);

/** ORDER BY deprecated_at IS NOT NULL, verified_at IS NULL, <the sort's keys>, slug. */
export function naiveSort(docs: SearchDocument[], sort: 'updated' | 'new' | 'name' | 'featured'): SearchDocument[] {
  const key = (a: SearchDocument, b: SearchDocument): number => {
    switch (sort) {
      case 'updated':
        return descending(millis(a.latestReleaseAt), millis(b.latestReleaseAt));
      case 'new':
        return descending(millis(a.createdAt), millis(b.createdAt));
      case 'name':
        return a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;
      case 'featured':
        return Number(b.featured) - Number(a.featured) || descending(millis(a.latestReleaseAt), millis(b.latestReleaseAt));
    }
  };
  return [...docs].sort(
    (a, b) =>
      Number(a.deprecatedAt != null) - Number(b.deprecatedAt != null) ||
      Number(a.verifiedAt == null) - Number(b.verifiedAt == null) ||
      key(a, b) ||
      (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
  );
}
