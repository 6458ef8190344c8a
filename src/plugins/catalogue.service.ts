import { Injectable } from '@nestjs/common';
import { CatalogueReads } from '../persistence/catalogue-reads';
import type { CataloguePageDto } from './dto/catalogue.dto';
import { type CatalogueQuery, wantsFacets } from './catalogue-query.pipe';
import { CatalogueFacetFields } from './catalogue-facet-fields';
import { CatalogueIndex } from './catalogue-index';
import { CatalogueRepository, type CatalogueFilter } from './catalogue.repository';
import { toCatalogueItemDto } from './catalogue.mapper';
import { type FacetCounts, type FacetRequest, searchWords } from './search-index';

/** Pages chosen again when writes land between the index's choice and the read of its rows. */
const FRESH_ATTEMPTS = 3;

const DEFAULT_LIMIT = 20;

function emptyFacets(request: FacetRequest): FacetCounts {
  const facets: FacetCounts = { kind: [], category: [], tags: [] };
  for (const key of request.extensionKeys) facets[`ext.${key}`] = [];
  return facets;
}

/** `GET /api/plugins`: the paginated catalogue (spec and DECISIONS 2 and 8). */
@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly index: CatalogueIndex,
    private readonly reads: CatalogueReads,
    private readonly facetFields: CatalogueFacetFields,
  ) {}

  /** The page as its controller answers it. */
  async page(query: CatalogueQuery): Promise<CataloguePageDto> {
    return JSON.parse(await this.pageJson(query)) as CataloguePageDto;
  }

  /**
   * The page as JSON text, exactly as `JSON.stringify(await page(query))`: written from the items'
   * held texts (catalogue-items.ts) without parsing them. The catalogue lane sends it as it is.
   */
  async pageJson(query: CatalogueQuery): Promise<string> {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const words = searchWords(query.search);
    const filter: CatalogueFilter = {
      words,
      search: query.search?.trim() ?? null,
      category: query.category,
      tag: query.tag,
      kind: query.kind,
      featured: query.featured === '1',
      verified: query.verified === '1',
      ext: query.ext,
      sort: query.sort ?? (words.length ? 'relevance' : 'updated'),
      offset: (page - 1) * limit,
      limit,
    };
    const facets: FacetRequest | undefined = wantsFacets(query) ? { extensionKeys: await this.facetFields.extensionKeys() } : undefined;
    // CataloguePageDto's members in its order; `facets` only when asked for.
    const envelope = (plugins: string[], total: number, counts?: FacetCounts): string =>
      `{"plugins":[${plugins.join(',')}],"page":${JSON.stringify(page)},"limit":${JSON.stringify(limit)},"total":${JSON.stringify(total)},"totalPages":${JSON.stringify(Math.ceil(total / limit))}${
        counts ? `,"facets":${JSON.stringify(counts)}` : ''
      }}`;
    return this.reads.run(async (manager) => {
      // The in-memory index chooses the page; one round trip reads, from one snapshot, whatever
      // changed since the index last looked, and the page's rows unless held (catalogue-index.ts).
      for (let attempt = 1; ; attempt++) {
        const chosen = this.index.query(filter, facets);
        if (!chosen) break;
        // The last attempt reads whole rows: its answer stands even if the log moved again.
        const read = await this.index.readPage(chosen.ids, manager, attempt < FRESH_ATTEMPTS);
        if (this.index.absorb(read, chosen.version) || attempt === FRESH_ATTEMPTS) return envelope(read.items, chosen.total, chosen.facets);
      }
      // While the index is first built: the catalogue's SQL, and no counts yet (each dimension empty).
      const { plugins, total } = await this.catalogue.page(filter, manager);
      return envelope(
        plugins.map((plugin) => JSON.stringify(toCatalogueItemDto(plugin))),
        total,
        facets && emptyFacets(facets),
      );
    });
  }
}
