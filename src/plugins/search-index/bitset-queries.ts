import { andInto, bitWords, hasBit, orInto, popcount32, setBit } from './bitset';
import type { DocumentTable } from './documents';
import { ORDER_SLUG, type SortOrders } from './sort-orders';
import type { TermTable } from './term-table';
import type { WordMatches } from './word-matches';

/** Levels of a one-word match, best first: name, then middle fields, then README, each exact, prefix, typo. */
const LEVELS = 9;
const NAME_LEVELS = 3;

/**
 * The broad-query paths, on bitsets of 32 documents a word: a word's documents are the OR of its
 * terms' bitsets (common terms keep one per field) and postings (rare ones), words AND together,
 * and the total is a popcount. A page in a kept order is one scan of that order that stops at
 * the page's end; a one-word page by relevance walks tiers (verified, exact name, level, name
 * covered) counting each by popcount until it reaches the page. Nothing here visits the matched
 * documents one by one except the ones on the page.
 */
export class BitsetQueries {
  private words = -1;
  private levels: Int32Array[] = [];
  private union = new Int32Array(0);
  private word = new Int32Array(0);
  private tier = new Int32Array(0);
  private filter = new Int32Array(0);
  private readonly one = new Int32Array(1);

  constructor(
    private readonly terms: TermTable,
    private readonly docs: DocumentTable,
    private readonly orders: SortOrders,
  ) {}

  /** Documents carrying every filter key (rarest first), or null without filters. */
  filterSet(filters: number[]): Int32Array | null {
    if (!filters.length) return null;
    this.ensure();
    this.termSet(filters[0], this.filter);
    for (let i = 1; i < filters.length; i++) {
      this.termSet(filters[i], this.word);
      andInto(this.filter, this.word);
    }
    return this.filter;
  }

  /** Documents matching every word and the filters; the set is reused by the next call. */
  matchSet(words: WordMatches[], filter: Int32Array | null): Int32Array {
    this.ensure();
    this.wordSet(words[0], this.union);
    for (let w = 1; w < words.length; w++) {
      this.wordSet(words[w], this.word);
      andInto(this.union, this.word);
    }
    if (filter) andInto(this.union, filter);
    return this.union;
  }

  /** Positions `[from, to)` of `set` in a kept order (`total` is the set's size). */
  page(set: Int32Array, total: number, order: Int32Array, rank: () => Int32Array, from: number, to: number): number[] {
    const docs: number[] = [];
    if (total * 16 < order.length) {
      const ranks = new Int32Array(total);
      const ranked = rank();
      let n = 0;
      forEachBit(set, (doc) => (ranks[n++] = ranked[doc]));
      ranks.sort();
      for (let i = from; i < to; i++) docs.push(order[ranks[i]]);
      return docs;
    }
    let seen = 0;
    for (let position = 0; position < order.length && seen < to; position++) {
      const doc = order[position];
      if (hasBit(set, doc) && seen++ >= from) docs.push(doc);
    }
    return docs;
  }

  /**
   * A page by relevance for one word, and the total. The order is the QueryRunner's, read off
   * bitsets: verified first, then the exact name, then the word's best level in the document (a
   * one-word name it covers just above), then the slug.
   */
  relevance(word: WordMatches, filter: Int32Array | null, exactName: string, from: number, to: number): { docs: number[]; total: number } {
    const used = this.wordLevels(word);
    const { levels, union } = this;
    // Each document at its best level only.
    union.fill(0);
    const sizes = new Int32Array(LEVELS);
    for (let l = 0; l < LEVELS; l++) {
      if (!used[l]) continue;
      const bits = levels[l];
      let size = 0;
      for (let i = 0; i < union.length; i++) {
        let x = bits[i] & ~union[i];
        if (filter) x &= filter[i];
        bits[i] = x;
        if (x !== 0) {
          union[i] |= x;
          size += popcount32(x);
        }
      }
      sizes[l] = size;
    }
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const docs: number[] = [];
    if (from >= total) return { docs, total };
    const exact: number[] = [];
    if (exactName) {
      const length = exactName.length;
      const candidates = this.tier;
      for (let i = 0; i < candidates.length; i++) candidates[i] = levels[0][i] & this.docs.oneWordNameBits[i];
      forEachBit(candidates, (doc) => {
        if (this.docs.nameLength[doc] === length && this.docs.names[doc] === exactName) exact.push(doc);
      });
    }
    let position = 0;
    for (const verified of [true, false]) {
      const exactHere = exact.filter((doc) => hasBit(this.docs.verifiedBits, doc) === verified).sort((a, b) => this.orders.rank(ORDER_SLUG)[a] - this.orders.rank(ORDER_SLUG)[b]);
      for (const doc of exactHere) {
        if (position >= from && position < to) docs.push(doc);
        position++;
      }
      for (let level = 0; level < LEVELS && position < to; level++) {
        if (sizes[level] === 0) continue;
        for (const covered of level < NAME_LEVELS ? [true, false] : [null]) {
          if (position >= to) break;
          const count = this.buildTier(level, verified, covered, exact);
          if (position + count > from) docs.push(...this.page(this.tier, count, this.orders.order(ORDER_SLUG), () => this.orders.rank(ORDER_SLUG), Math.max(0, from - position), Math.min(count, to - position)));
          position += count;
        }
      }
    }
    return { docs, total };
  }

  /**
   * The word's documents by level (field * 3 + kind: name, middle, README; exact, prefix, typo)
   * into `levels`, a document in every level it reaches; returns which levels were written (the
   * others hold stale bits). A common word touches one or two of the nine.
   */
  wordLevels(word: WordMatches): Uint8Array {
    this.ensure();
    const { levels, terms } = this;
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
    return this.levels;
  }

  /** The tier's documents into `tier`, and how many. */
  private buildTier(level: number, verified: boolean, covered: boolean | null, exact: number[]): number {
    const { tier } = this;
    const source = this.levels[level];
    const verifiedBits = this.docs.verifiedBits;
    const oneWord = this.docs.oneWordNameBits;
    const vMask = verified ? 0 : -1;
    const cMask = covered === null ? -1 : covered ? 0 : -1;
    let count = 0;
    for (let i = 0; i < tier.length; i++) {
      let x = source[i] & (verifiedBits[i] ^ vMask);
      if (covered !== null) x &= oneWord[i] ^ cMask;
      tier[i] = x;
      if (x !== 0) count += popcount32(x);
    }
    for (const doc of exact) {
      if (hasBit(tier, doc)) {
        tier[doc >>> 5] &= ~(1 << (doc & 31));
        count--;
      }
    }
    return count;
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

  private ensure(): void {
    const words = bitWords(this.docs.capacity);
    if (words === this.words) return;
    this.words = words;
    this.levels = Array.from({ length: LEVELS }, () => new Int32Array(words));
    this.union = new Int32Array(words);
    this.word = new Int32Array(words);
    this.tier = new Int32Array(words);
    this.filter = new Int32Array(words);
  }

  approximateBytes(): number {
    return [...this.levels, this.union, this.word, this.tier, this.filter].reduce((sum, bits) => sum + bits.byteLength, 0);
  }
}

/** Calls `visit` with every document in `bits`, in id order. */
export function forEachBit(bits: Int32Array, visit: (doc: number) => void): void {
  for (let i = 0; i < bits.length; i++) {
    let x = bits[i];
    while (x !== 0) {
      const lowest = x & -x;
      visit(i * 32 + 31 - Math.clz32(lowest));
      x ^= lowest;
    }
  }
}
