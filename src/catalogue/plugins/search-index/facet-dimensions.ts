/** What facets a query asks for and gets, and which dimension (kind, category, tags, `ext.<key>`) each filter key belongs to. */
import { filterKeys } from './tokenize';
import type { CatalogueIndexQuery } from './types';

/** The facets a catalogue query asks for: kind, category and tags always, and these extension keys. */
export interface FacetRequest {
  /** Extension keys (`stars` for `ext.stars`) the registry declares as an enum or a boolean. */
  extensionKeys: readonly string[];
  /** Values kept per dimension (default 20; tags 30). */
  limit?: number;
  tagLimit?: number;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** Per dimension (`kind`, `category`, `tags`, `ext.<key>`): its values by count, most first. */
export type FacetCounts = Record<string, FacetValue[]>;

export const FACET_LIMIT = 20;
export const TAG_FACET_LIMIT = 30;

const KIND = 'kind';
const CATEGORY = 'category';
export const TAGS = 'tags';

/** The dimension a filter-key term belongs to, and where its value starts, or null for other terms. */
export function dimensionOfKey(term: string): { name: string; valueAt: number } | null {
  if (term.charCodeAt(0) !== 1) return null;
  switch (term.charAt(1)) {
    case 'k':
      return { name: KIND, valueAt: 2 };
    case 'c':
      return { name: CATEGORY, valueAt: 2 };
    case 't':
      return { name: TAGS, valueAt: 2 };
    case 'e': {
      const end = term.indexOf('\u0000', 2);
      return end < 0 ? null : { name: `ext.${term.slice(2, end)}`, valueAt: end + 1 };
    }
    default:
      return null;
  }
}

/** A dimension and the filter of the query that picks one of its values. */
export interface Dimension {
  name: string;
  /** What every filter key of its values starts with (values compare as their keys do). */
  keyPrefix: string;
  selected: string | undefined;
  /** The query without that filter: clicking another value replaces it. */
  without: (query: CatalogueIndexQuery) => CatalogueIndexQuery;
}

export function dimensionsOf(query: CatalogueIndexQuery, request: FacetRequest): Dimension[] {
  const dimensions: Dimension[] = [
    { name: KIND, keyPrefix: filterKeys.kind(''), selected: query.kind, without: (q) => ({ ...q, kind: undefined }) },
    { name: CATEGORY, keyPrefix: filterKeys.category(''), selected: query.category, without: (q) => ({ ...q, category: undefined }) },
    { name: TAGS, keyPrefix: filterKeys.tag(''), selected: query.tag, without: (q) => ({ ...q, tag: undefined }) },
  ];
  for (const key of new Set(request.extensionKeys)) {
    dimensions.push({
      name: `ext.${key}`,
      keyPrefix: filterKeys.extension(key, ''),
      selected: query.ext?.[key],
      without: (q) => {
        const ext = { ...q.ext };
        delete ext[key];
        return { ...q, ext };
      },
    });
  }
  return dimensions;
}
