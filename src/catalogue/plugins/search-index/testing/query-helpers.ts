import type { CatalogueSearchIndex } from '../search-index';
import { searchWords } from '../tokenize';
import type { CatalogueIndexQuery } from '../types';

export type QueryOptions = Partial<Omit<CatalogueIndexQuery, 'words' | 'search'>>;

/** The query the catalogue service would make of `search` and the options (relevance by default with words, as the service does). */
export function catalogueQuery(search: string, options: QueryOptions = {}): CatalogueIndexQuery {
  const words = searchWords(search);
  return { words, search: search.trim() || null, sort: words.length ? 'relevance' : 'updated', offset: 0, limit: 100, ...options };
}

/** The slugs of a page (the corpus ids are `id-<slug>`), and its total. */
export function search(index: CatalogueSearchIndex, text: string, options: QueryOptions = {}): { slugs: string[]; total: number } {
  const page = index.query(catalogueQuery(text, options));
  return { slugs: page.ids.map((id) => id.replace(/^id-/, '')), total: page.total };
}

export const slugsOf = (index: CatalogueSearchIndex, text: string, options: QueryOptions = {}): string[] =>
  search(index, text, options).slugs;
