import type { DataSource, EntityManager } from 'typeorm';
import type { CatalogueSort } from './dto/catalogue.dto';
import { PluginCountEntity } from './entities/plugin-count.entity';
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

/**
 * The JSON values an `ext.<key>=<value>` filter can match, as containment probes the GIN index
 * answers: the string, the number or boolean it spells, and each as an array member. The exact
 * text comparison runs after them, so `5.0` still does not match `5`.
 */
export function extensionProbes(key: string, value: string): string[] {
  const scalars: unknown[] = [value];
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value))) scalars.push(Number(value));
  if (value === 'true' || value === 'false') scalars.push(value === 'true');
  return scalars.flatMap((scalar) => [JSON.stringify({ [key]: scalar }), JSON.stringify({ [key]: [scalar] })]);
}

function isUnfiltered(filter: CatalogueFilter): boolean {
  return (
    !filter.words.length &&
    !filter.category &&
    !filter.tag &&
    !filter.kind &&
    !filter.featured &&
    !filter.verified &&
    Object.keys(filter.ext).length === 0
  );
}

/** The catalogue's one query: filters, `ext.*` matches, search, and deprecated-last, verified-first ordering. */
export class CatalogueRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    filter: CatalogueFilter,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ plugins: PluginEntity[]; total: number }> {
    const query = manager.getRepository(PluginEntity).createQueryBuilder('p');
    if (filter.words.length) {
      query
        .addSelect(`(lower(p.name) = lower(:search))`, 'exact_name')
        .addSelect(
          `ts_rank(p.search_vector, to_tsquery('simple', :tsquery)) + word_similarity(lower(:search), lower(p.name))`,
          'search_rank',
        )
        // Words as prefixes over the weighted document, the name as a prefix, or a name close
        // enough to forgive a typo (`mardown` finds `markdown`): each arm has its own GIN index.
        .andWhere(
          `(p.search_vector @@ to_tsquery('simple', :tsquery) OR lower(p.name) LIKE :namePrefix OR lower(:search) <% lower(p.name))`,
          {
            search: filter.search,
            tsquery: filter.words.map((word) => `${word}:*`).join(' & '),
            namePrefix: `${filter.words.join('%')}%`,
          },
        );
    }
    if (filter.category) query.andWhere('p.category = :category', { category: filter.category });
    if (filter.tag) query.andWhere('p.tags @> :tag::jsonb', { tag: JSON.stringify([filter.tag]) });
    if (filter.kind) query.andWhere('p.kind = :kind', { kind: filter.kind });
    if (filter.featured) query.andWhere('p.featured = true');
    if (filter.verified) query.andWhere('p.verified_at IS NOT NULL');
    Object.entries(filter.ext).forEach(([key, value], i) => {
      const probes = extensionProbes(key, value);
      const contains = probes.map((_, j) => `p.extensions @> :ext${i}probe${j}::jsonb`).join(' OR ');
      // A scalar compares as text (ext.stars=5 matches 5 and "5"); an array matches a member.
      query.andWhere(
        `(${contains}) AND ((jsonb_typeof(p.extensions -> :extKey${i}) <> 'array' AND p.extensions ->> :extKey${i} = :extValue${i})
          OR (jsonb_typeof(p.extensions -> :extKey${i}) = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.extensions -> :extKey${i}) AS member WHERE member = :extValue${i})))`,
        { [`extKey${i}`]: key, [`extValue${i}`]: value, ...Object.fromEntries(probes.map((probe, j) => [`ext${i}probe${j}`, probe])) },
      );
    });
    // Deprecated plugins sink below every other in each sort, then verified plugins
    // lead (spec): a null verified_at orders after a set one. The sort indexes lead with both.
    query.orderBy('p.deprecated_at IS NOT NULL', 'ASC').addOrderBy('p.verified_at IS NULL', 'ASC');
    for (const [column, direction, nulls] of ORDER[filter.sort]) query.addOrderBy(column, direction, nulls);
    query.addOrderBy('p.slug', 'ASC').offset(filter.offset).limit(filter.limit);
    if (!isUnfiltered(filter)) {
      const [plugins, total] = await query.getManyAndCount();
      return { plugins, total };
    }
    // The whole catalogue: its size is kept by triggers, not counted row by row every page.
    const [plugins, counted] = await Promise.all([query.getMany(), manager.getRepository(PluginCountEntity).findOneByOrFail({ id: 1 })]);
    return { plugins, total: Number(counted.plugins) };
  }
}
