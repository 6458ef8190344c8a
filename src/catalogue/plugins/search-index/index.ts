export { CatalogueSearchIndex, type SearchIndexOptions, type SlicedBuildOptions } from './search-index';
export { README_INDEXED_CHARS, README_INDEXED_WORDS } from './indexer';
export { searchWords } from './tokenize';
export type { CatalogueIndexPage, CatalogueIndexQuery, CatalogueIndexSort, SearchDocument } from './types';
export { FACET_LIMIT, TAG_FACET_LIMIT, type FacetCounts, type FacetRequest, type FacetValue } from './facet-dimensions';
