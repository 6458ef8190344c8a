import { andInto, forEachBit, hasBit, popcount, popcount32 } from './bitset';
import { LEVELS, type BitsetMatchSets, type BitsetScratch } from './bitset-match-sets';
import type { DocumentTable } from './documents';
import { ORDER_SLUG, type SortOrders } from './sort-orders';
import { levelPoints, NAME_COVERED_BONUS, SCORE_LIMIT } from './scoring';
import type { WordMatches } from './word-matches';

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

/** Positions `[from, to)` of `set` in a kept order (`total` is the set's size): one scan that stops at the page's end, or the set's ranks sorted when it is small. */
export function pageInOrder(set: Int32Array, total: number, order: Int32Array, rank: () => Int32Array, from: number, to: number): number[] {
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
 * Pages by relevance of a broad query, read off bitsets: a one-word page walks tiers (not
 * deprecated, verified, exact name, level, name covered), a several-word page walks combinations
 * of the words' levels by score, each counted by popcount until it reaches the page. Nothing here
 * visits the matched documents one by one except the ones on the page.
 */
export class BitsetRelevance {
  private readonly scratch: BitsetScratch;

  constructor(
    private readonly sets: BitsetMatchSets,
    private readonly docs: DocumentTable,
    private readonly orders: SortOrders,
  ) {
    this.scratch = sets.scratch;
  }

  /**
   * A page by relevance for one word, and the total. The order is the QueryRunner's, read off
   * bitsets: deprecated last, verified first, then the exact name, then the word's best level in the document (a
   * one-word name it covers just above), then the slug.
   */
  relevance(word: WordMatches, filter: Int32Array | null, exactName: string, from: number, to: number): { docs: number[]; total: number } {
    const used = this.sets.wordLevels(word);
    const { levels, union } = this.scratch;
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
      const candidates = this.scratch.tier;
      for (let i = 0; i < candidates.length; i++) candidates[i] = levels[0][i] & this.docs.nameWordsAtMost[0][i];
      forEachBit(candidates, (doc) => {
        if (this.docs.nameLength[doc] === length && this.docs.names[doc] === exactName) exact.push(doc);
      });
    }
    let position = 0;
    for (const standing of STANDINGS) {
      const exactHere = exact
        .filter((doc) => this.standsAs(doc, standing))
        .sort((a, b) => this.orders.rank(ORDER_SLUG)[a] - this.orders.rank(ORDER_SLUG)[b]);
      for (const doc of exactHere) {
        if (position >= from && position < to) docs.push(doc);
        position++;
      }
      for (let level = 0; level < LEVELS && position < to; level++) {
        if (sizes[level] === 0) continue;
        for (const covered of level < NAME_LEVELS ? [true, false] : [null]) {
          if (position >= to) break;
          const count = this.buildTier(level, standing, covered, exact);
          if (position + count > from)
            docs.push(
              ...pageInOrder(
                this.scratch.tier,
                count,
                this.orders.order(ORDER_SLUG),
                () => this.orders.rank(ORDER_SLUG),
                Math.max(0, from - position),
                Math.min(count, to - position),
              ),
            );
          position += count;
        }
      }
    }
    return { docs, total };
  }

  /**
   * A page by relevance for several words, and the total, in the QueryRunner's order: each
   * document's words fall at one level each, so the documents of one combination of levels share
   * a score. Combinations are walked by score (equal scores merged, then by slug), each counted by
   * popcount, until the page is full. Null when the words' levels combine too many ways.
   */
  relevanceOfWords(
    words: WordMatches[],
    filter: Int32Array | null,
    exactName: string,
    from: number,
    to: number,
  ): { docs: number[]; total: number } | null {
    this.scratch.ensure();
    const used: number[][] = [];
    let combinations = 1;
    for (let w = 0; w < words.length; w++) {
      while (this.scratch.wordLevelSets.length <= w) {
        this.scratch.wordLevelSets.push(Array.from({ length: LEVELS }, () => new Int32Array(this.scratch.words)));
        this.scratch.wordUnions.push(new Int32Array(this.scratch.words));
      }
      const levels = this.scratch.wordLevelSets[w];
      const written = this.sets.wordLevels(words[w], levels);
      const union = this.scratch.wordUnions[w];
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
    const match = this.scratch.union;
    match.set(this.scratch.wordUnions[0]);
    for (let w = 1; w < words.length; w++) andInto(match, this.scratch.wordUnions[w]);
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
        if (count > 0 && position + count > from)
          docs.push(
            ...pageInOrder(
              this.scratch.tier,
              count,
              this.orders.order(ORDER_SLUG),
              () => this.orders.rank(ORDER_SLUG),
              Math.max(0, from - position),
              Math.min(count, to - position),
            ),
          );
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
      partial = partial.flatMap((c) =>
        reached.map((l) => ({
          levels: [...c.levels, l],
          score: c.score + levelPoints(l),
          nameHits: c.nameHits + (l < NAME_LEVELS ? 1 : 0),
        })),
      );
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
    const { tier } = this.scratch;
    const { verifiedBits, deprecatedBits } = this.docs;
    const vMask = standing.verified ? 0 : -1;
    const dMask = standing.deprecated ? 0 : -1;
    tier.fill(0);
    for (const c of group) {
      const sets = c.levels.map((l, w) => this.scratch.wordLevelSets[w][l]);
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
    const candidates = this.scratch.tier;
    candidates.set(match);
    for (let w = 0; w < words; w++) andInto(candidates, this.scratch.wordLevelSets[w][0]);
    forEachBit(candidates, (doc) => {
      if (this.docs.nameLength[doc] === exactName.length && this.docs.names[doc] === exactName) exact.push(doc);
    });
    return exact;
  }

  private bySlug(docs: number[]): number[] {
    const rank = docs.length > 1 ? this.orders.rank(ORDER_SLUG) : null;
    return rank ? [...docs].sort((a, b) => rank[a] - rank[b]) : docs;
  }

  /** The tier's documents into `tier`, and how many. */
  private buildTier(level: number, standing: Standing, covered: boolean | null, exact: number[]): number {
    const { tier } = this.scratch;
    const source = this.scratch.levels[level];
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
}
