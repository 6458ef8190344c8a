import type { ChangesPageRow } from './changes.repository';

/**
 * The feed's answer (ChangesPageDto) as JSON text around the changes PostgreSQL wrote as JSON: a
 * page of 100 parsed into objects and written out again cost more than everything else the
 * request does. Cursors are digits, so they need no escaping.
 */
export function changesPageJson(row: ChangesPageRow, since: bigint): string {
  return `{"changes":${row.changes},"next":"${row.last ?? since.toString()}","more":${row.more ? 'true' : 'false'}}`;
}
