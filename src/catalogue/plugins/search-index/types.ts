/** The orders a catalogue page can take; `relevance` only means something with search words. */
export type CatalogueIndexSort = 'relevance' | 'updated' | 'new' | 'name' | 'featured';

/** What the index keeps of one plugin: the catalogue columns the search, filters and sorts read. */
export interface SearchDocument {
  /** The plugin's id (uuid): what a query answers with. */
  id: string;
  /** Unique; the last tie-break of every order, as in the SQL. */
  slug: string;
  name: string;
  description: string | null;
  category: string | null;
  kind: string | null;
  tags: readonly string[];
  extensions: Readonly<Record<string, unknown>> | null;
  /** The README as plain text (the `search_readme` column); only its start is indexed. */
  readme: string;
  featured: boolean;
  verifiedAt: Date | number | null;
  /** Set while the plugin is deprecated: it sinks below every other plugin in each order. */
  deprecatedAt?: Date | number | null;
  latestReleaseAt: Date | number | null;
  createdAt: Date | number;
}

/** The catalogue's query, shaped like CatalogueFilter so the service can hand the same object over. */
export interface CatalogueIndexQuery {
  /** Lowercase words as searchWords makes them (at most 8 are read). */
  words: readonly string[];
  /** The search as typed, for the exact-name rank. */
  search?: string | null;
  category?: string;
  tag?: string;
  kind?: string;
  featured?: boolean;
  verified?: boolean;
  /** `ext.<key>=<value>` filters, combined with AND. */
  ext?: Readonly<Record<string, string>>;
  /** `relevance` without words orders as `updated` (the SQL never gets that far). */
  sort: CatalogueIndexSort;
  offset: number;
  limit: number;
}

export interface CatalogueIndexPage {
  /** The plugin ids of the page, in order. */
  ids: string[];
  /** Every plugin the query matches, counted exactly. */
  total: number;
}
