/**
 * What one query word adds to a document's score, by how it matched (exact, prefix, typo) and
 * where (name; description, tags, category, kind; README): `[kind * 4 + field]`. Every name
 * match outweighs every middle match, and every middle match every README match.
 */
export const CONTRIBUTION = new Uint8Array([30, 10, 3, 0, 24, 8, 2, 0, 18, 6, 1, 0]);
export const UPPER_FLOOR = 6;
export const NAME_FLOOR = 18;
/**
 * A score is `upper * 32 + readme`: README points (at most 3 a word, 8 words) only order
 * documents whose name, description and tags scored the same.
 */
export const UPPER_SCALE = 32;
/** For a name whose every word the query matched: `markdown preview` puts `markdown-preview` above `markdown-preview-tools`. */
export const NAME_COVERED_BONUS = 4 * UPPER_SCALE;
/** Scores are kept below this (13 bits). */
export const SCORE_LIMIT = 1 << 13;

/** A level (field * 3 + kind, best first) as the points it adds to a score. */
export function levelPoints(level: number): number {
  const contribution = CONTRIBUTION[(level % 3) * 4 + Math.floor(level / 3)];
  return contribution >= UPPER_FLOOR ? contribution * UPPER_SCALE : contribution;
}
