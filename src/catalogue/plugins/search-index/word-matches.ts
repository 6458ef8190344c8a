import type { TermTable } from './term-table';
import { typoEligible, withinOneEdit } from './typo-dictionary';

/** How a vocabulary word answers a query word; the score falls in this order. */
export const MATCH_EXACT = 0;
export const MATCH_PREFIX = 1;
export const MATCH_TYPO = 2;

/** The vocabulary words one query word stands for, and how many postings they hold. */
export interface WordMatches {
  terms: number[];
  kinds: number[];
  postings: number;
}

/**
 * The words a query word matches: itself and, from two letters, every word it starts (a
 * one-letter word matches only itself: a prefix that short names half the catalogue and no one
 * means it). When nothing in a name, description or tag starts with it, a word of five letters
 * or more also matches the words of five letters or more one edit away (insert, delete,
 * substitute, transpose) found in names, descriptions and tags: a misspelling is corrected, a
 * real word is not blurred into its neighbours.
 */
export function matchWord(table: TermTable, word: string): WordMatches {
  const matches: WordMatches = { terms: [], kinds: [], postings: 0 };
  const add = (termId: number, kind: number): void => {
    matches.terms.push(termId);
    matches.kinds.push(kind);
    matches.postings += table.df[termId];
  };
  if (word.length === 1) {
    const termId = table.idOf(word);
    if (termId !== undefined && table.df[termId] > 0) add(termId, MATCH_EXACT);
    return matches;
  }
  const [from, to] = table.prefixRange(word);
  let inUpperFields = false;
  for (let position = from; position < to; position++) {
    const termId = table.vocab[position];
    if (table.df[termId] === 0) continue;
    add(termId, table.strings[termId].length === word.length ? MATCH_EXACT : MATCH_PREFIX);
    if (table.upperDf[termId] > 0) inUpperFields = true;
  }
  if (!inUpperFields && typoEligible(word)) addTypoNeighbours(table, word, (termId) => add(termId, MATCH_TYPO));
  return matches;
}

function addTypoNeighbours(table: TermTable, word: string, add: (termId: number) => void): void {
  const seen = new Set<number>();
  const consider = (termId: number): void => {
    if (seen.has(termId)) return;
    seen.add(termId);
    const candidate = table.strings[termId];
    if (table.upperDf[termId] > 0 && candidate !== word && typoEligible(candidate) && withinOneEdit(word, candidate)) add(termId);
  };
  // Substitutions, transpositions and a missing letter meet in the deletion map; an extra letter
  // leaves a deletion of the query that is itself a word.
  table.typos.candidates(word, consider);
  for (let i = 0; i < word.length; i++) {
    const termId = table.idOf(word.slice(0, i) + word.slice(i + 1));
    if (termId !== undefined) consider(termId);
  }
}
