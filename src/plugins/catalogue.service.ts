import { Injectable } from '@nestjs/common';
import { CatalogueReads } from '../database/catalogue-reads';
import type { CataloguePageDto } from './dto/catalogue.dto';
import type { CatalogueQuery } from './catalogue-query.pipe';
import { CatalogueRepository, type CatalogueFilter } from './catalogue.repository';
import { toCatalogueItemDto } from './catalogue.mapper';

const DEFAULT_LIMIT = 20;

/** The words of a search: lowercase letters and digits, each a prefix (`mark` finds `markdown-preview`). */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, 8) ?? [];
}

/** `GET /api/plugins`: the paginated catalogue (spec and DECISIONS 2 and 8). */
@Injectable()
export class CatalogueService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly reads: CatalogueReads,
  ) {}

  async page(query: CatalogueQuery): Promise<CataloguePageDto> {
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
    const { plugins, total } = await this.reads.run((manager) => this.catalogue.page(filter, manager));
    return { plugins: plugins.map(toCatalogueItemDto), page, limit, total, totalPages: Math.ceil(total / limit) };
  }
}
