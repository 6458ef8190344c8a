import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { CatalogueReads } from '../../persistence/catalogue-reads';
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

/** A filter's value as the browse page reads its form: trimmed, and a blank one is no filter. */
const filterValue = (value: string | undefined): string | undefined => value?.trim() || undefined;

function extFilters(ext: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ext)) {
    const trimmed = filterValue(value);
    if (trimmed !== undefined) out[key] = trimmed;
  }
  return out;
}

/** What shared caches may do with a catalogue page: keep it 30 s, or (`UNSHARED`) not at all. */
export const CATALOGUE_CACHE_CONTROL = 'public, max-age=30';
export const UNSHARED_CACHE_CONTROL = 'no-store';

/** A catalogue page as JSON text and its Cache-Control. */
export interface CataloguePageAnswer {
  json: string;
  /**
   * UNSHARED_CACHE_CONTROL when facets were asked for and could not be counted as the registry
   * stands: the index is still being built (`facets` is left out), or the declared fields kept
   * changing under the page's reads. Such an answer is not kept by the response cache either.
   */
  cacheControl: string;
}

/**
 * `GET /api/plugins`: the paginated catalogue (spec, docs/decisions.md#shapes-every-endpoint-shares
 * and docs/decisions.md#catalogue-search-detail-and-the-latest-release).
 */
@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly index: CatalogueIndex,
    private readonly reads: CatalogueReads,
    private readonly facetFields: CatalogueFacetFields,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The page as its controller answers it, and its Cache-Control. */
  async page(query: CatalogueQuery): Promise<{ page: CataloguePageDto; cacheControl: string }> {
    const answer = await this.pageJson(query);
    return { page: JSON.parse(answer.json) as CataloguePageDto, cacheControl: answer.cacheControl };
  }

  /**
   * The page as JSON text, exactly as `JSON.stringify(await page(query))`: written from the items'
   * held texts (catalogue-items.ts) without parsing them. The catalogue lane sends it as it is.
   */
  async pageJson(query: CatalogueQuery): Promise<CataloguePageAnswer> {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const words = searchWords(query.search);
    const filter: CatalogueFilter = {
      words,
      search: query.search?.trim() ?? null,
      category: filterValue(query.category),
      tag: filterValue(query.tag),
      kind: filterValue(query.kind),
      featured: query.featured === '1',
      verified: query.verified === '1',
      ext: extFilters(query.ext),
      sort: query.sort ?? (words.length ? 'relevance' : 'updated'),
      offset: (page - 1) * limit,
      limit,
    };
    // While the index is first built, a page waits for it (CATALOGUE_INDEX_WAIT_MS) before SQL
    // answers it: answered with SQL at once, a crowd's searches (seconds each under load) took
    // the pool, and the build, which reads through the same pool, waited behind them.
    if (!this.index.built) await this.index.whenBuilt(this.config.catalogueIndexWaitMs);
    let fields = wantsFacets(query) ? await this.facetFields.extensionKeys() : undefined;
    // CataloguePageDto's members in its order; `facets` only when asked for.
    const envelope = (plugins: string[], total: number, counts?: FacetCounts, shared = true): CataloguePageAnswer => ({
      cacheControl: shared ? CATALOGUE_CACHE_CONTROL : UNSHARED_CACHE_CONTROL,
      json: `{"plugins":[${plugins.join(',')}],"page":${JSON.stringify(page)},"limit":${JSON.stringify(limit)},"total":${JSON.stringify(total)},"totalPages":${JSON.stringify(Math.ceil(total / limit))}${
        counts ? `,"facets":${JSON.stringify(counts)}` : ''
      }}`,
    });
    return this.reads.run(async (manager) => {
      // The in-memory index chooses the page; one round trip reads, from one snapshot, whatever
      // changed since the index last looked, and the page's rows unless held (catalogue-index.ts).
      for (let attempt = 1; ; attempt++) {
        const request: FacetRequest | undefined = fields && { extensionKeys: fields.keys };
        const chosen = this.index.query(filter, request);
        if (!chosen) break;
        // The last attempt reads whole rows: its answer stands even if the log moved again.
        const read = await this.index.readPage(chosen.ids, manager, attempt < FRESH_ATTEMPTS);
        const fresh = this.index.absorb(read, chosen.version);
        // Fields declared differently in the snapshot (changed through another instance): read them again and count again.
        const fieldsCurrent = !fields || fields.version === read.settingsVersion;
        if ((fresh && fieldsCurrent) || attempt === FRESH_ATTEMPTS) return envelope(read.items, chosen.total, chosen.facets, fieldsCurrent);
        if (fields && !fieldsCurrent) {
          this.facetFields.stale(read.settingsVersion);
          fields = await this.facetFields.extensionKeys();
        }
      }
      // While the index is first built: the catalogue's SQL, and no counts yet: `facets` left out, and the answer not shared.
      const { plugins, total } = await this.catalogue.page(filter, manager);
      return envelope(
        plugins.map((plugin) => JSON.stringify(toCatalogueItemDto(plugin))),
        total,
        undefined,
        !fields,
      );
    });
  }
}
