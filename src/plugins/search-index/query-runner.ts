import type { DocumentTable } from './documents';
import { ORDER_FEATURED, ORDER_NAME, ORDER_NEW, ORDER_SLUG, ORDER_UPDATED, type SortOrders } from './sort-orders';
import { lowerBound, type TermTable } from './term-table';
import { filterKeys, MAX_QUERY_WORDS } from './tokenize';
import type { CatalogueIndexPage, CatalogueIndexQuery } from './types';
import { matchWord, type WordMatches } from './word-matches';

/**
 * What one query word adds to a document's score, by how it matched (exact, prefix, typo) and
 * where (name; description, tags, category, kind; README): `[kind * 4 + field]`. Every name
 * match outweighs every middle match, and every middle match every README match.
 */
const CONTRIBUTION = new Uint8Array([30, 10, 3, 0, 24, 8, 2, 0, 18, 6, 1, 0]);
const UPPER_FLOOR = 6;
const NAME_FLOOR = 18;
/** For a name whose every word the query matched: `markdown preview` puts `markdown-preview` above `markdown-preview-tools`. */
const NAME_COVERED_BONUS = 4;
/** A word's README score stays below 32 (8 words x 3), so it orders only within equal upper scores. */
const README_SPAN = 32;
const SCORE_BITS = 13;
const EXACT_BIT = 1 << SCORE_BITS;
const VERIFIED_BIT = 1 << (SCORE_BITS + 1);
const BUCKETS = 1 << (SCORE_BITS + 2);
/** Below one in this many of the catalogue, sorting the matches' ranks beats scanning a whole order. */
const SPARSE = 16;

const ORDER_OF = { updated: ORDER_UPDATED, new: ORDER_NEW, name: ORDER_NAME, featured: ORDER_FEATURED } as const;

/**
 * Runs queries over the tables. Scratch arrays sized to the document capacity hold per-query
 * state (scores, match counts, stamps); everything a query sets is cleared before it returns, so
 * the cost of a query is that of the postings it reads, not of the catalogue.
 */
export class QueryRunner {
  private capacity = -1;
  private stamp = new Int32Array(0);
  private epoch = 0;
  private best = new Uint8Array(0);
  private matchedWords = new Uint8Array(0);
  private upper = new Uint8Array(0);
  private readme = new Uint8Array(0);
  private nameHits = new Uint8Array(0);
  private bucket = new Uint16Array(0);
  /** The first word's matches (every document with scratch state to clear), the later words', the filtered. */
  private firstWord = new Int32Array(0);
  private laterWord = new Int32Array(0);
  private filtered = new Int32Array(0);
  private resetCount = 0;
  private readonly histogram = new Uint32Array(BUCKETS);
  private readonly one = new Int32Array(1);

  constructor(
    private readonly terms: TermTable,
    private readonly docs: DocumentTable,
    private readonly orders: SortOrders,
  ) {}

  run(query: CatalogueIndexQuery): CatalogueIndexPage {
    const offset = Math.max(0, Math.floor(query.offset) || 0);
    const limit = Math.max(0, Math.floor(query.limit) || 0);
    const filters = this.filterTerms(query);
    if (filters === null) return { ids: [], total: 0 };
    const words = query.words
      .slice(0, MAX_QUERY_WORDS)
      .map((word) => word.toLowerCase())
      .filter((word) => word.length > 0);
    const sort = query.sort === 'relevance' && words.length === 0 ? 'updated' : query.sort;
    if (!words.length && !filters.length) {
      return { ids: this.pluginIds(this.orders.order(ORDER_OF[sort as keyof typeof ORDER_OF]).subarray(offset, offset + limit)), total: this.docs.live };
    }
    this.ensureCapacity();
    try {
      let list: Int32Array;
      let count: number;
      if (words.length) {
        const matches = words.map((word) => matchWord(this.terms, word));
        if (matches.some((match) => match.terms.length === 0)) return { ids: [], total: 0 };
        [list, count] = this.score(matches);
        [list, count] = this.applyFilters(list, count, filters);
      } else {
        [list, count] = this.intersectFilters(filters);
      }
      if (offset >= count || limit === 0) return { ids: [], total: count };
      const ids =
        sort === 'relevance'
          ? this.relevancePage(list, count, offset, Math.min(count, offset + limit), query.search ?? null)
          : this.sortedPage(list, count, ORDER_OF[sort], offset, Math.min(count, offset + limit));
      return { ids, total: count };
    } finally {
      this.clearScores();
    }
  }

  approximateBytes(): number {
    const scratch = [this.stamp, this.best, this.matchedWords, this.upper, this.readme, this.nameHits, this.bucket, this.firstWord, this.laterWord, this.filtered, this.histogram];
    return scratch.reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** The filter keys' term ids, rarest first; null when one names nothing (the page is empty). */
  private filterTerms(query: CatalogueIndexQuery): number[] | null {
    const keys: string[] = [];
    if (query.category) keys.push(filterKeys.category(query.category));
    if (query.tag) keys.push(filterKeys.tag(query.tag));
    if (query.kind) keys.push(filterKeys.kind(query.kind));
    if (query.featured) keys.push(filterKeys.featured);
    if (query.verified) keys.push(filterKeys.verified);
    for (const [key, value] of Object.entries(query.ext ?? {})) keys.push(filterKeys.extension(key, value));
    const ids: number[] = [];
    for (const key of new Set(keys)) {
      const termId = this.terms.idOf(key);
      if (termId === undefined || this.terms.df[termId] === 0) return null;
      ids.push(termId);
    }
    return ids.sort((a, b) => this.terms.df[a] - this.terms.df[b]);
  }

  /**
   * Scores the documents that match every word (AND; each word may match any field), the word
   * with the fewest postings first, so later words only touch the survivors. A word's score in a
   * document is its best match there; upper-field and README scores add up apart.
   */
  private score(matches: WordMatches[]): [Int32Array, number] {
    const words = [...matches].sort((a, b) => a.postings - b.postings);
    const { best, matchedWords, upper, readme, nameHits, terms } = this;
    let list = this.firstWord;
    let count = 0;
    for (let w = 0; w < words.length; w++) {
      const touched = w === 0 ? this.firstWord : this.laterWord;
      count = 0;
      const { terms: termIds, kinds } = words[w];
      for (let k = 0; k < termIds.length; k++) {
        const termId = termIds[k];
        const base = kinds[k] * 4;
        const postings = this.postings(termId);
        const df = terms.df[termId];
        for (let p = 0; p < df; p++) {
          const entry = postings[p];
          const doc = entry >> 2;
          if (w > 0 && matchedWords[doc] !== w) continue;
          const contribution = CONTRIBUTION[base + (entry & 3)];
          const previous = best[doc];
          if (previous === 0) touched[count++] = doc;
          if (contribution > previous) best[doc] = contribution;
        }
      }
      if (w === 0) this.resetCount = count;
      for (let i = 0; i < count; i++) {
        const doc = touched[i];
        const contribution = best[doc];
        best[doc] = 0;
        matchedWords[doc] = w + 1;
        if (contribution >= UPPER_FLOOR) {
          upper[doc] += contribution;
          if (contribution >= NAME_FLOOR) nameHits[doc]++;
        } else {
          readme[doc] += contribution;
        }
      }
      list = touched;
      if (count === 0) break;
    }
    return [list, count];
  }

  private clearScores(): void {
    const { firstWord, matchedWords, upper, readme, nameHits } = this;
    for (let i = 0; i < this.resetCount; i++) {
      const doc = firstWord[i];
      matchedWords[doc] = 0;
      upper[doc] = 0;
      readme[doc] = 0;
      nameHits[doc] = 0;
    }
    this.resetCount = 0;
  }

  /** Keeps the listed documents that carry every filter key: by binary search when they are few, else by stamping the key's postings. */
  private applyFilters(list: Int32Array, count: number, filters: number[]): [Int32Array, number] {
    for (const termId of filters) {
      if (count === 0) break;
      const out = this.filtered;
      const df = this.terms.df[termId];
      const postings = this.postings(termId);
      let kept = 0;
      if (count * SPARSE < df) {
        for (let i = 0; i < count; i++) {
          const doc = list[i];
          const at = lowerBound(postings, df, doc * 4);
          if (at < df && postings[at] >> 2 === doc) out[kept++] = doc;
        }
      } else {
        const epoch = this.nextEpoch();
        for (let p = 0; p < df; p++) this.stamp[postings[p] >> 2] = epoch;
        for (let i = 0; i < count; i++) if (this.stamp[list[i]] === epoch) out[kept++] = list[i];
      }
      list = out;
      count = kept;
    }
    return [list, count];
  }

  /** The documents carrying every filter key, from the rarest key's postings. */
  private intersectFilters(filters: number[]): [Int32Array, number] {
    const [rarest, ...rest] = filters;
    const postings = this.postings(rarest);
    const df = this.terms.df[rarest];
    for (let p = 0; p < df; p++) this.filtered[p] = postings[p] >> 2;
    return this.applyFilters(this.filtered, df, rest);
  }

  /** A page of the matches in a kept order: their ranks sorted when they are few, else one scan of the order that stops at the page's end. */
  private sortedPage(list: Int32Array, count: number, order: number, from: number, to: number): string[] {
    const ids = this.orders.order(order);
    if (count * SPARSE < ids.length) {
      const rank = this.orders.rank(order);
      const ranks = new Int32Array(count);
      for (let i = 0; i < count; i++) ranks[i] = rank[list[i]];
      ranks.sort();
      return Array.from(ranks.subarray(from, to), (position) => this.docs.pluginIds[ids[position]] as string);
    }
    const epoch = this.nextEpoch();
    for (let i = 0; i < count; i++) this.stamp[list[i]] = epoch;
    const page: string[] = [];
    let seen = 0;
    for (let position = 0; position < ids.length && seen < to; position++) {
      const doc = ids[position];
      if (this.stamp[doc] !== epoch) continue;
      if (seen++ >= from) page.push(this.docs.pluginIds[doc] as string);
    }
    return page;
  }

  /**
   * A page by relevance. Each match gets one number: verified first (the SQL's leading
   * `verified_at IS NULL`), then the exact name, then the score; a histogram of those numbers
   * finds the few that the page spans, and within each, documents order by slug.
   */
  private relevancePage(list: Int32Array, count: number, from: number, to: number, search: string | null): string[] {
    const exactName = search === null ? '' : search.trim().toLowerCase();
    const exactLength = exactName.length > 0 && exactName.length < 255 ? exactName.length : -1;
    const { docs, upper, readme, nameHits, bucket, histogram, stamp } = this;
    const epoch = this.nextEpoch();
    histogram.fill(0);
    let top = 0;
    let bottom = BUCKETS;
    for (let i = 0; i < count; i++) {
      const doc = list[i];
      const covered = nameHits[doc] > 0 && nameHits[doc] >= docs.nameWords[doc] ? NAME_COVERED_BONUS : 0;
      const score = Math.min((upper[doc] + covered) * README_SPAN + readme[doc], EXACT_BIT - 1);
      const exact = docs.nameLength[doc] === exactLength && docs.names[doc] === exactName;
      const key = (docs.verifiedNull[doc] ? 0 : VERIFIED_BIT) | (exact ? EXACT_BIT : 0) | score;
      stamp[doc] = epoch;
      bucket[doc] = key;
      histogram[key]++;
      if (key > top) top = key;
      if (key < bottom) bottom = key;
    }
    const page: string[] = [];
    let position = 0;
    for (let key = top; key >= bottom && position < to; key--) {
      const size = histogram[key];
      if (size === 0) continue;
      if (position + size > from) {
        page.push(...this.bucketSlice(list, count, key, size, Math.max(0, from - position), Math.min(size, to - position), epoch));
      }
      position += size;
    }
    return page;
  }

  /** Positions `[from, to)` in slug order of the matches whose relevance number is `key`. */
  private bucketSlice(list: Int32Array, count: number, key: number, size: number, from: number, to: number, epoch: number): string[] {
    const slugOrder = this.orders.order(ORDER_SLUG);
    const { bucket, stamp, docs } = this;
    if (size * SPARSE < slugOrder.length) {
      const rank = this.orders.rank(ORDER_SLUG);
      const ranks = new Int32Array(size);
      let n = 0;
      for (let i = 0; i < count; i++) if (bucket[list[i]] === key) ranks[n++] = rank[list[i]];
      ranks.sort();
      return Array.from(ranks.subarray(from, to), (position) => docs.pluginIds[slugOrder[position]] as string);
    }
    const page: string[] = [];
    let seen = 0;
    for (let position = 0; position < slugOrder.length && seen < to; position++) {
      const doc = slugOrder[position];
      if (stamp[doc] !== epoch || bucket[doc] !== key) continue;
      if (seen++ >= from) page.push(docs.pluginIds[doc] as string);
    }
    return page;
  }

  /** A term's postings: its list, or its one inline entry. */
  private postings(termId: number): Int32Array {
    const list = this.terms.lists[termId];
    if (list) return list;
    this.one[0] = this.terms.single[termId];
    return this.one;
  }

  private pluginIds(docs: Int32Array): string[] {
    return Array.from(docs, (doc) => this.docs.pluginIds[doc] as string);
  }

  private nextEpoch(): number {
    if (++this.epoch >= 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  private ensureCapacity(): void {
    const capacity = this.docs.capacity;
    if (capacity === this.capacity) return;
    this.capacity = capacity;
    this.stamp = new Int32Array(capacity);
    this.epoch = 0;
    this.best = new Uint8Array(capacity);
    this.matchedWords = new Uint8Array(capacity);
    this.upper = new Uint8Array(capacity);
    this.readme = new Uint8Array(capacity);
    this.nameHits = new Uint8Array(capacity);
    this.bucket = new Uint16Array(capacity);
    this.firstWord = new Int32Array(capacity);
    this.laterWord = new Int32Array(capacity);
    this.filtered = new Int32Array(capacity);
  }
}

