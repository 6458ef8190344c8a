import type { DataSource } from 'typeorm';
import type { CatalogueSort } from './dto/catalogue.dto';
import { PluginEntity } from './entities/plugin.entity';

export interface CatalogueFilter {
  /** Lowercase words; each matches as a word prefix. */
  words: string[];
  /** The search as typed, for the exact-name rank. */
  search: string | null;
  category?: string;
  tag?: string;
  kind?: string;
  featured: boolean;
  verified: boolean;
  ext: Record<string, string>;
  /** `relevance` only with search words (the service's default then). */
  sort: CatalogueSort | 'relevance';
  offset: number;
  limit: number;
}

// The searchable text, weighted: the name first, then description and tags, then category and kind.
const DOCUMENT = `(setweight(to_tsvector('simple', p.name), 'A')
  || setweight(to_tsvector('simple', coalesce(p.description, '')), 'B')
  || setweight(to_tsvector('simple', p.tags::text), 'B')
  || setweight(to_tsvector('simple', coalesce(p.category, '') || ' ' || coalesce(p.kind, '')), 'C'))`;

const ORDER: Record<CatalogueFilter['sort'], [string, 'ASC' | 'DESC', ('NULLS FIRST' | 'NULLS LAST')?][]> = {
  relevance: [
    ['exact_name', 'DESC'],
    ['search_rank', 'DESC'],
  ],
  updated: [['p.latest_release_at', 'DESC', 'NULLS LAST']],
  new: [['p.created_at', 'DESC']],
  name: [['p.name', 'ASC']],
  featured: [
    ['p.featured', 'DESC'],
    ['p.latest_release_at', 'DESC', 'NULLS LAST'],
  ],
};

/** How close (pg_trgm word similarity) a name must be to a search to count as a typo of it. */
const TYPO_SIMILARITY = 0.5;

/** The catalogue's one query: filters, `ext.*` matches, search, and verified-first ordering. */
export class CatalogueRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(filter: CatalogueFilter): Promise<{ plugins: PluginEntity[]; total: number }> {
    const query = this.dataSource.getRepository(PluginEntity).createQueryBuilder('p');
    if (filter.words.length) {
      query
        .addSelect(`(lower(p.name) = lower(:search))`, 'exact_name')
        .addSelect(`ts_rank(${DOCUMENT}, to_tsquery('simple', :tsquery)) + word_similarity(lower(:search), lower(p.name))`, 'search_rank')
        // Words as prefixes, or a name close enough to forgive a typo (`mardown` finds `markdown`).
        .andWhere(`(${DOCUMENT} @@ to_tsquery('simple', :tsquery) OR p.name ILIKE :namePrefix OR word_similarity(lower(:search), lower(p.name)) >= ${TYPO_SIMILARITY})`, {
          search: filter.search,
          tsquery: filter.words.map((word) => `${word}:*`).join(' & '),
          namePrefix: `${filter.words.join('%')}%`,
        });
    }
    if (filter.category) query.andWhere('p.category = :category', { category: filter.category });
    if (filter.tag) query.andWhere('p.tags @> :tag::jsonb', { tag: JSON.stringify([filter.tag]) });
    if (filter.kind) query.andWhere('p.kind = :kind', { kind: filter.kind });
    if (filter.featured) query.andWhere('p.featured = true');
    if (filter.verified) query.andWhere('p.verified_at IS NOT NULL');
    Object.entries(filter.ext).forEach(([key, value], i) => {
      // A scalar compares as text (ext.stars=5 matches 5 and "5"); an array matches a member.
      query.andWhere(
        `((jsonb_typeof(p.extensions -> :extKey${i}) <> 'array' AND p.extensions ->> :extKey${i} = :extValue${i})
          OR (jsonb_typeof(p.extensions -> :extKey${i}) = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.extensions -> :extKey${i}) AS member WHERE member = :extValue${i})))`,
        { [`extKey${i}`]: key, [`extValue${i}`]: value },
      );
    });
    // Verified plugins lead every sort (spec): a null verified_at orders after a set one.
    query.orderBy('p.verified_at IS NULL', 'ASC');
    for (const [column, direction, nulls] of ORDER[filter.sort]) query.addOrderBy(column, direction, nulls);
    query.addOrderBy('p.slug', 'ASC').offset(filter.offset).limit(filter.limit);
    const [plugins, total] = await query.getManyAndCount();
    return { plugins, total };
  }
}
