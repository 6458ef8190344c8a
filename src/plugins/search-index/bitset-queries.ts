import { andInto, bitWords, hasBit, orInto, popcount, popcount32, setBit } from './bitset';
import type { DocumentTable } from './documents';
import { ORDER_SLUG, type SortOrders } from './sort-orders';
import type { TermTable } from './term-table';
import { levelPoints, NAME_COVERED_BONUS, SCORE_LIMIT } from './scoring';
import type { WordMatches } from './word-matches';

/** Levels of a one-word match, best first: name, then middle fields, then README, each exact, prefix, typo. */
const LEVELS = 9;
const NAME_LEVELS = 3;
/** Past this many combinations of the words' levels, several words are ranked document by document. */
const MAX_COMBINATIONS = 64;

/** The classes every order leads with, best first: current verified, current, deprecated verified, deprecated. */
interface Standing {
  deprecated: boolean;
  verified: boolean;
}
const STANDINGS: readonly Standing[] = [
  { deprecated: false, verified: true },
  { deprecated: false, verified: false },
  { deprecated: true, verified: true },
  { deprecated: true, verified: false },
];

/** Documents whose words fell at these levels (one a word), and the score that gives them. */
interface Combination {
  levels: number[];
  score: number;
  /** Name words matched: with at most this many words in the name, the name is covered. */
  nameHits: number;
  covered: boolean;
}

/**
 * The broad-query paths, on bitsets of 32 documents a word: a word's documents are the OR of its
 * terms' bitsets (common terms keep one per field) and postings (rare ones), words AND together,
 * and the total is a popcount. A page in a kept order is one scan of that order that stops at
 * the page's end; a one-word page by relevance walks tiers (not deprecated, verified, exact name,
 * level, name covered) counting each by popcount until it reaches the page. Nothing here visits the matched
 * documents one by one except the ones on the page.
 */
export class BitsetQueries {
  private words = -1;
  private levels: Int32Array[] = [];
  /** Per word of a several-word search: its levels, and every document it matches. */
  private wordLevelSets: Int32Array[][] = [];
  private wordUnions: Int32Array[] = [];
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
   * bitsets: deprecated last, verified first, then the exact name, then the word's best level in the document (a
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
      for (let i = 0; i < candidates.length; i++) candidates[i] = levels[0][i] & this.docs.nameWordsAtMost[0][i];
      forEachBit(candidates, (doc) => {
        if (this.docs.nameLength[doc] === length && this.docs.names[doc] === exactName) exact.push(doc);
      });
    }
    let position = 0;
    for (const standing of STANDINGS) {
      const exactHere = exact.filter((doc) => this.standsAs(doc, standing)).sort((a, b) => this.orders.rank(ORDER_SLUG)[a] - this.orders.rank(ORDER_SLUG)[b]);
      for (const doc of exactHere) {
        if (position >= from && position < to) docs.push(doc);
        position++;
      }
      for (let level = 0; level < LEVELS && position < to; level++) {
        if (sizes[level] === 0) continue;
        for (const covered of level < NAME_LEVELS ? [true, false] : [null]) {
          if (position >= to) break;
          const count = this.buildTier(level, standing, covered, exact);
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
  wordLevels(word: WordMatches, into?: Int32Array[]): Uint8Array {
    this.ensure();
    const { terms } = this;
    const levels = into ?? this.levels;
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

  /**
   * A page by relevance for several words, and the total, in the QueryRunner's order: each
   * document's words fall at one level each, so the documents of one combination of levels share
   * a score. Combinations are walked by score (equal scores merged, then by slug), each counted by
   * popcount, until the page is full. Null when the words' levels combine too many ways.
   */
  relevanceOfWords(words: WordMatches[], filter: Int32Array | null, exactName: string, from: number, to: number): { docs: number[]; total: number } | null {
    this.ensure();
    const used: number[][] = [];
    let combinations = 1;
    for (let w = 0; w < words.length; w++) {
      while (this.wordLevelSets.length <= w) {
        this.wordLevelSets.push(Array.from({ length: LEVELS }, () => new Int32Array(this.words)));
        this.wordUnions.push(new Int32Array(this.words));
      }
      const levels = this.wordLevelSets[w];
      const written = this.wordLevels(words[w], levels);
      const union = this.wordUnions[w];
      union.fill(0);
      const reached: number[] = [];
      for (let l = 0; l < LEVELS; l++) {
        if (!written[l]) continue;
        const bits = levels[l];
        let any = 0;
        for (let i = 0; i < union.length; i++) {
          const x = bits[i] & ~union[i];
          bits[i] = x;
          union[i] |= x;
          any |= x;
        }
        if (any !== 0) reached.push(l);
      }
      used.push(reached);
      combinations *= reached.length;
      if (combinations > MAX_COMBINATIONS) return null;
    }
    const match = this.union;
    match.set(this.wordUnions[0]);
    for (let w = 1; w < words.length; w++) andInto(match, this.wordUnions[w]);
    if (filter) andInto(match, filter);
    const total = popcount(match);
    const docs: number[] = [];
    if (from >= total) return { docs, total };
    const exact = this.exactDocs(exactName, match, words.length);
    const groups = this.combinations(used);
    let position = 0;
    for (const standing of STANDINGS) {
      for (const doc of this.bySlug(exact.filter((d) => this.standsAs(d, standing)))) {
        if (position >= from && position < to) docs.push(doc);
        position++;
      }
      for (const group of groups) {
        if (position >= to) break;
        const count = this.buildGroup(group, match, standing, exact);
        if (count > 0 && position + count > from) docs.push(...this.page(this.tier, count, this.orders.order(ORDER_SLUG), () => this.orders.rank(ORDER_SLUG), Math.max(0, from - position), Math.min(count, to - position)));
        position += count;
      }
      if (position >= to) break;
    }
    return { docs, total };
  }

  /** Every combination of the words' levels, covered or not, grouped by score, best first. */
  private combinations(used: number[][]): Combination[][] {
    let partial: Array<{ levels: number[]; score: number; nameHits: number }> = [{ levels: [], score: 0, nameHits: 0 }];
    for (const reached of used) {
      partial = partial.flatMap((c) => reached.map((l) => ({ levels: [...c.levels, l], score: c.score + levelPoints(l), nameHits: c.nameHits + (l < NAME_LEVELS ? 1 : 0) })));
    }
    const all: Combination[] = partial.flatMap((c) => {
      const plain = { ...c, score: Math.min(c.score, SCORE_LIMIT - 1), covered: false };
      return c.nameHits > 0 ? [{ ...c, score: Math.min(c.score + NAME_COVERED_BONUS, SCORE_LIMIT - 1), covered: true }, plain] : [plain];
    });
    all.sort((a, b) => b.score - a.score);
    const groups: Combination[][] = [];
    for (const c of all) {
      if (groups.length && groups[groups.length - 1][0].score === c.score) groups[groups.length - 1].push(c);
      else groups.push([c]);
    }
    return groups;
  }

  /** Whether the document is of this standing. */
  private standsAs(doc: number, standing: Standing): boolean {
    return hasBit(this.docs.verifiedBits, doc) === standing.verified && hasBit(this.docs.deprecatedBits, doc) === standing.deprecated;
  }

  /** The documents of a score group (one standing, exact names left out) into `tier`, and how many. */
  private buildGroup(group: Combination[], match: Int32Array, standing: Standing, exact: number[]): number {
    const { tier } = this;
    const { verifiedBits, deprecatedBits } = this.docs;
    const vMask = standing.verified ? 0 : -1;
    const dMask = standing.deprecated ? 0 : -1;
    tier.fill(0);
    for (const c of group) {
      const sets = c.levels.map((l, w) => this.wordLevelSets[w][l]);
      const names = c.nameHits > 0 ? this.docs.nameWordsAtMost[Math.min(c.nameHits, 8) - 1] : null;
      const nMask = c.covered ? 0 : -1;
      for (let i = 0; i < tier.length; i++) {
        let x = match[i] & (verifiedBits[i] ^ vMask) & (deprecatedBits[i] ^ dMask);
        for (let w = 0; w < sets.length && x !== 0; w++) x &= sets[w][i];
        if (names) x &= names[i] ^ nMask;
        tier[i] |= x;
      }
    }
    for (const doc of exact) tier[doc >>> 5] &= ~(1 << (doc & 31));
    return popcount(tier);
  }

  /** The matched documents named exactly `exactName`: every word of theirs is an exact name word. */
  private exactDocs(exactName: string, match: Int32Array, words: number): number[] {
    const exact: number[] = [];
    if (!exactName) return exact;
    const candidates = this.tier;
    candidates.set(match);
    for (let w = 0; w < words; w++) andInto(candidates, this.wordLevelSets[w][0]);
    forEachBit(candidates, (doc) => {
      if (this.docs.nameLength[doc] === exactName.length && this.docs.names[doc] === exactName) exact.push(doc);
    });
    return exact;
  }

  private bySlug(docs: number[]): number[] {
    const rank = docs.length > 1 ? this.orders.rank(ORDER_SLUG) : null;
    return rank ? [...docs].sort((a, b) => rank[a] - rank[b]) : docs;
  }

  /** The level bitsets `wordLevels` wrote. */
  get levelBits(): readonly Int32Array[] {
    return this.levels;
  }

  /** The tier's documents into `tier`, and how many. */
  private buildTier(level: number, standing: Standing, covered: boolean | null, exact: number[]): number {
    const { tier } = this;
    const source = this.levels[level];
    const { verifiedBits, deprecatedBits } = this.docs;
    const oneWord = this.docs.nameWordsAtMost[0];
    const vMask = standing.verified ? 0 : -1;
    const dMask = standing.deprecated ? 0 : -1;
    const cMask = covered === null ? -1 : covered ? 0 : -1;
    let count = 0;
    for (let i = 0; i < tier.length; i++) {
      let x = source[i] & (verifiedBits[i] ^ vMask) & (deprecatedBits[i] ^ dMask);
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
