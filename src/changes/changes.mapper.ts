import type { CatalogueEventRow } from './changes.repository';
import type { ChangeDto } from './dto/changes.dto';

export function toChangeDto(row: CatalogueEventRow): ChangeDto {
  return { cursor: row.seq, type: row.type, slug: row.slug, version: row.version, data: row.data, at: new Date(row.created_at).toISOString() };
}
