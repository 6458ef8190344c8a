import { andInto, bitWords, orInto, setBit } from './bitset';
import type { DocumentTable } from './documents';
import type { TermTable } from './term-table';
import type { WordMatches } from './word-matches';

/** Levels of a one-word match, best first: name, then middle fields, then README, each exact, prefix, typo. */
export const LEVELS = 9;

/**
 * The bitsets a broad query works in, sized to the document capacity and reused by every query
 * (whoever writes one resets it first). Shared by the match sets and the relevance pages.
 */
export class BitsetScratch {
  /** 32-bit words a bitset holds. */
  words = -1;
  /** Per level, the documents `wordLevels` put there. */
  levels: Int32Array[] = [];
  /** Per word of a several-word search: its levels, and every document it matches. */
  wordLevelSets: Int32Array[][] = [];
  wordUnions: Int32Array[] = [];
  union = new Int32Array(0);
  word = new Int32Array(0);
  tier = new Int32Array(0);
  filter = new Int32Array(0);

  constructor(private readonly docs: DocumentTable) {}

  /** Resizes every bitset when the document capacity changed. */
  ensure(): void {
    const words = bitWords(this.docs.capacity);
    if (words === this.words) return;
    this.words = words;
    this.levels = Array.from({ length: LEVELS }, () => new Int32Array(words));
    this.wordLevelSets = [];
    this.wordUnions = [];
    this.union = new Int32Array(words);
    this.word = new Int32Array(words);
    this.tier = new Int32Array(words);
    this.filter = new Int32Array(words);
  }

  approximateBytes(): number {
    return [...this.levels, this.union, this.word, this.tier, this.filter].reduce((sum, bits) => sum + bits.byteLength, 0);
  }
}

/**
 * A broad query's documents as bitsets of 32 documents a word: a word's documents are the OR of
 * its terms' bitsets (common terms keep one per field) and postings (rare ones), words and filter
 * keys AND together. The sets live in the scratch and are reused by the next call.
 */
export class BitsetMatchSets {
  readonly scratch: BitsetScratch;
  private readonly one = new Int32Array(1);

  constructor(
    private readonly terms: TermTable,
    docs: DocumentTable,
  ) {
    this.scratch = new BitsetScratch(docs);
  }

  /** Documents carrying every filter key (rarest first), or null without filters. */
  filterSet(filters: number[]): Int32Array | null {
    if (!filters.length) return null;
    const scratch = this.scratch;
    scratch.ensure();
    this.termSet(filters[0], scratch.filter);
    for (let i = 1; i < filters.length; i++) {
      this.termSet(filters[i], scratch.word);
      andInto(scratch.filter, scratch.word);
    }
    return scratch.filter;
  }

  /** Documents matching every word and the filters; the set is reused by the next call. */
  matchSet(words: WordMatches[], filter: Int32Array | null): Int32Array {
    const scratch = this.scratch;
    scratch.ensure();
    this.wordSet(words[0], scratch.union);
    for (let w = 1; w < words.length; w++) {
      this.wordSet(words[w], scratch.word);
      andInto(scratch.union, scratch.word);
    }
    if (filter) andInto(scratch.union, filter);
    return scratch.union;
  }

  /**
   * The word's documents by level (field * 3 + kind: name, middle, README; exact, prefix, typo)
   * into `levels`, a document in every level it reaches; returns which levels were written (the
   * others hold stale bits). A common word touches one or two of the nine.
   */
  wordLevels(word: WordMatches, into?: Int32Array[]): Uint8Array {
    this.scratch.ensure();
    const { terms } = this;
    const levels = into ?? this.scratch.levels;
    const used = new Uint8Array(LEVELS);
    const level = (index: number): Int32Array => {
      if (!used[index]) {
        used[index] = 1;
        levels[index].fill(0);
      }
      return levels[index];
    };
    for (let k = 0; k < word.terms.length; k++) {
      const termId = word.terms[k];
      const kind = word.kinds[k];
      const bits = terms.bits[termId];
      if (bits) {
        for (let field = 0; field < 3; field++) if (bits[field]) orInto(level(field * 3 + kind), bits[field] as Int32Array);
      } else {
        const postings = this.postings(termId);
        for (let p = 0; p < terms.df[termId]; p++) setBit(level((postings[p] & 3) * 3 + kind), postings[p] >> 2);
      }
    }
    return used;
  }

  /** The level bitsets `wordLevels` wrote. */
  get levelBits(): readonly Int32Array[] {
    return this.scratch.levels;
  }

  private wordSet(word: WordMatches, into: Int32Array): void {
    into.fill(0);
    for (const termId of word.terms) this.orTerm(termId, into);
  }

  private termSet(termId: number, into: Int32Array): void {
    into.fill(0);
    this.orTerm(termId, into);
  }

  private orTerm(termId: number, into: Int32Array): void {
    const bits = this.terms.bits[termId];
    if (bits) {
      for (const fieldBits of bits) if (fieldBits) orInto(into, fieldBits);
      return;
    }
    const postings = this.postings(termId);
    for (let p = 0; p < this.terms.df[termId]; p++) setBit(into, postings[p] >> 2);
  }

  private postings(termId: number): Int32Array {
    const list = this.terms.lists[termId];
    if (list) return list;
    this.one[0] = this.terms.single[termId];
    return this.one;
  }
}
