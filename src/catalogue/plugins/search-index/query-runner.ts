import { BitsetMatchSets } from './bitset-match-sets';
import { BitsetRelevance, pageInOrder } from './bitset-pages';
import { hasBit, popcount } from './bitset';
import type { DocumentTable } from './documents';
import { exactNameOf, MatchPages } from './match-pages';
import { ORDER_FEATURED, ORDER_NAME, ORDER_NEW, ORDER_UPDATED, type SortOrders } from './sort-orders';
import { lowerBound, type TermTable } from './term-table';
import { CONTRIBUTION, NAME_FLOOR, UPPER_FLOOR, UPPER_SCALE } from './scoring';
import { filterKeys, MAX_QUERY_WORDS } from './tokenize';
import type { CatalogueIndexPage, CatalogueIndexQuery } from './types';
import { matchWord, type WordMatches } from './word-matches';
import { nextStamp } from './stamps';

/** Progress marks a query uses: one a word, and one for "touched by the current word". */
const PROGRESS_STEP = MAX_QUERY_WORDS + 2;

/**
 * Every document a query matches, unordered, for counting (facets): the whole catalogue, none, a
 * list of internal ids, or a bitset. A view of scratch memory, valid until the next query.
 */
export type MatchedSet =
  | { kind: 'all'; count: number }
  | { kind: 'none'; count: 0 }
  | { kind: 'list'; list: Int32Array; count: number }
  | { kind: 'bits'; bits: Int32Array; count: number };

const NONE: MatchedSet = { kind: 'none', count: 0 };

const ORDER_OF = { updated: ORDER_UPDATED, new: ORDER_NEW, name: ORDER_NAME, featured: ORDER_FEATURED } as const;

/**
 * Runs queries over the tables. Scratch arrays sized to the document capacity hold per-query
 * state, tagged with a per-query number instead of being cleared, so that a query costs the
 * postings it reads and the page it returns, never a pass over the whole catalogue for nothing.
 */
export class QueryRunner {
  private capacity = -1;
  /** Marks (filter pass, page pass) tagged by `epoch`. */
  private stamp = new Int32Array(0);
  private epoch = 0;
  /** How many words a document matched in this query: `progressBase + words`. */
  private progress = new Int32Array(0);
  private progressBase = 0;
  private best = new Uint8Array(0);
  private score = new Uint16Array(0);
  private nameHits = new Uint8Array(0);
  private firstWord = new Int32Array(0);
  private laterWord = new Int32Array(0);
  private filtered = new Int32Array(0);
  private readonly one = new Int32Array(1);
  private readonly bitsets: BitsetMatchSets;
  private readonly bitsetRelevance: BitsetRelevance;
  private readonly pages: MatchPages;

  constructor(
    private readonly terms: TermTable,
    private readonly docs: DocumentTable,
    private readonly orders: SortOrders,
    /** A search is broad (bitsets) when its rarest word has postings for more than this share of the catalogue. */
    private readonly broadShare: number,
  ) {
    this.bitsets = new BitsetMatchSets(terms, docs);
    this.bitsetRelevance = new BitsetRelevance(this.bitsets, docs, orders);
    this.pages = new MatchPages(docs, orders);
  }

  run(query: CatalogueIndexQuery): CatalogueIndexPage {
    const offset = Math.max(0, Math.floor(query.offset) || 0);
    const limit = Math.max(0, Math.floor(query.limit) || 0);
    let filters = this.filterTerms(query);
    if (filters === null) return { ids: [], total: 0 };
    const words = query.words
      .slice(0, MAX_QUERY_WORDS)
      .map((word) => word.toLowerCase())
      .filter((word) => word.length > 0);
    const sort = query.sort === 'relevance' && words.length === 0 ? 'updated' : query.sort;
    if (!words.length && !filters.length) {
      return {
        ids: this.pluginIds(this.orders.order(ORDER_OF[sort as keyof typeof ORDER_OF]).subarray(offset, offset + limit)),
        total: this.docs.live,
      };
    }
    this.ensureCapacity();
    let list: Int32Array;
    let count: number;
    if (words.length) {
      const matches = words.map((word) => matchWord(this.terms, word)).sort((a, b) => a.postings - b.postings);
      if (matches[0].terms.length === 0) return { ids: [], total: 0 };
      // A broad search runs on bitsets; a narrow one visits its few documents.
      if (matches[0].postings > this.docs.live * this.broadShare) {
        const page = this.broad(matches, filters, sort, offset, limit, query.search ?? null);
        if (page) return page;
      }
      // Filters first when their documents are fewer than the rarest word's postings, else after.
      let allowed = 0;
      if (filters.length && this.terms.df[filters[0]] <= matches[0].postings) {
        [list, count] = this.intersectFilters(filters);
        if (count === 0) return { ids: [], total: 0 };
        allowed = this.nextEpoch();
        for (let i = 0; i < count; i++) this.stamp[list[i]] = allowed;
        filters = [];
      }
      [list, count] = this.match(matches, allowed, sort === 'relevance');
      [list, count] = this.applyFilters(list, count, filters);
    } else {
      [list, count] = this.intersectFilters(filters);
    }
    if (offset >= count || limit === 0) return { ids: [], total: count };
    const to = Math.min(count, offset + limit);
    const ids =
      sort === 'relevance'
        ? this.pages.relevancePage(list, count, offset, to, query.search ?? null, this.score, this.nameHits)
        : this.pages.sortedPage(list, count, ORDER_OF[sort], offset, to);
    return { ids, total: count };
  }

  /**
   * The documents matching the query's words and filters (its sort and page ignored), on the
   * path `run` would take: a broad search or filter as a bitset, a narrow one as a list.
   */
  matching(query: CatalogueIndexQuery): MatchedSet {
    const filters = this.filterTerms(query);
    if (filters === null) return NONE;
    const words = query.words
      .slice(0, MAX_QUERY_WORDS)
      .map((word) => word.toLowerCase())
      .filter((word) => word.length > 0);
    if (!words.length && !filters.length) return { kind: 'all', count: this.docs.live };
    this.ensureCapacity();
    if (!words.length) {
      if (this.terms.df[filters[0]] > this.docs.live * this.broadShare) {
        const bits = this.bitsets.filterSet(filters) as Int32Array;
        return { kind: 'bits', bits, count: popcount(bits) };
      }
      const [list, count] = this.intersectFilters(filters);
      return { kind: 'list', list, count };
    }
    const matches = words.map((word) => matchWord(this.terms, word)).sort((a, b) => a.postings - b.postings);
    if (matches[0].terms.length === 0) return NONE;
    if (matches[0].postings > this.docs.live * this.broadShare) {
      const bits = this.bitsets.matchSet(matches, this.bitsets.filterSet(filters));
      return { kind: 'bits', bits, count: popcount(bits) };
    }
    let [list, count] = this.match(matches, 0, false);
    [list, count] = this.applyFilters(list, count, filters);
    return { kind: 'list', list, count };
  }

  /** A broad search on bitsets; null when its words combine too many ways (then it goes document by document). */
  private broad(
    matches: WordMatches[],
    filters: number[],
    sort: CatalogueIndexQuery['sort'],
    offset: number,
    limit: number,
    search: string | null,
  ): CatalogueIndexPage | null {
    const filter = this.bitsets.filterSet(filters);
    if (sort === 'relevance') {
      const ranked =
        matches.length === 1
          ? this.bitsetRelevance.relevance(matches[0], filter, exactNameOf(search), offset, offset + limit)
          : this.bitsetRelevance.relevanceOfWords(matches, filter, exactNameOf(search), offset, offset + limit);
      return ranked && { ids: this.pluginIds(ranked.docs), total: ranked.total };
    }
    const set = this.bitsets.matchSet(matches, filter);
    const total = popcount(set);
    if (offset >= total || limit === 0) return { ids: [], total };
    const order = ORDER_OF[sort];
    const docs = pageInOrder(set, total, this.orders.order(order), () => this.orders.rank(order), offset, Math.min(total, offset + limit));
    return { ids: this.pluginIds(docs), total };
  }

  approximateBytes(): number {
    const scratch = [this.stamp, this.progress, this.best, this.score, this.nameHits, this.firstWord, this.laterWord, this.filtered];
    return (
      scratch.reduce((sum, array) => sum + array.byteLength, 0) + this.bitsets.scratch.approximateBytes() + this.pages.approximateBytes()
    );
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
   * The documents that match every word (AND; each word may match any field), rarest word first
   * so that later words only touch the survivors; with `scoring`, each one's score: per word its
   * best match there, summed.
   */
  private match(words: WordMatches[], allowed: number, scoring: boolean): [Int32Array, number] {
    const { progress, best, stamp, terms } = this;
    const base = this.nextProgressBase();
    let list = this.firstWord;
    let count = 0;
    for (let w = 0; w < words.length; w++) {
      const touched = w === 0 ? this.firstWord : this.laterWord;
      const eligible = base + w;
      const seen = eligible + 1;
      if (w > 0 && words[w].postings > count * 4 && words[w].postings * 4 > this.docs.live * this.broadShare) {
        // A broad later word: look each survivor up in the word's level bitsets instead of
        // reading every posting of the word.
        count = this.matchByLevels(words[w], list, count, touched, eligible, seen);
        if (scoring) this.addScores(touched, count, false);
        list = touched;
        if (count === 0) break;
        continue;
      }
      count = 0;
      const { terms: termIds, kinds } = words[w];
      for (let k = 0; k < termIds.length; k++) {
        const kind = kinds[k] * 4;
        const postings = this.postings(termIds[k]);
        const df = terms.df[termIds[k]];
        for (let p = 0; p < df; p++) {
          const entry = postings[p];
          const doc = entry >> 2;
          const mark = progress[doc];
          const contribution = CONTRIBUTION[kind + (entry & 3)];
          if (mark === seen) {
            if (contribution > best[doc]) best[doc] = contribution;
          } else if (w === 0 ? mark <= base && (allowed === 0 || stamp[doc] === allowed) : mark === eligible) {
            progress[doc] = seen;
            best[doc] = contribution;
            touched[count++] = doc;
          }
        }
      }
      if (scoring) this.addScores(touched, count, w === 0);
      list = touched;
      if (count === 0) break;
    }
    return [list, count];
  }

  /** The survivors in `list` that `word` matches, into `touched`, each with the word's best contribution. */
  private matchByLevels(word: WordMatches, list: Int32Array, count: number, touched: Int32Array, eligible: number, seen: number): number {
    const used = this.bitsets.wordLevels(word);
    const levels = this.bitsets.levelBits;
    const { progress, best } = this;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const doc = list[i];
      if (progress[doc] !== eligible) continue;
      for (let level = 0; level < used.length; level++) {
        if (used[level] && hasBit(levels[level], doc)) {
          progress[doc] = seen;
          best[doc] = CONTRIBUTION[(level % 3) * 4 + Math.floor(level / 3)];
          touched[kept++] = doc;
          break;
        }
      }
    }
    return kept;
  }

  private addScores(docs: Int32Array, count: number, first: boolean): void {
    const { best, score, nameHits } = this;
    for (let i = 0; i < count; i++) {
      const doc = docs[i];
      const contribution = best[doc];
      const points = contribution >= UPPER_FLOOR ? contribution * UPPER_SCALE : contribution;
      const inName = contribution >= NAME_FLOOR ? 1 : 0;
      if (first) {
        score[doc] = points;
        nameHits[doc] = inName;
      } else {
        score[doc] += points;
        nameHits[doc] += inName;
      }
    }
  }

  /** Keeps the listed documents that carry every filter key: by binary search when they are few, else by stamping the key's postings. */
  private applyFilters(list: Int32Array, count: number, filters: number[]): [Int32Array, number] {
    for (const termId of filters) {
      if (count === 0) break;
      const out = this.filtered;
      const df = this.terms.df[termId];
      const postings = this.postings(termId);
      let kept = 0;
      if (count * 16 < df) {
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

  /** A term's postings: its list, or its one inline entry. */
  private postings(termId: number): Int32Array {
    const list = this.terms.lists[termId];
    if (list) return list;
    this.one[0] = this.terms.single[termId];
    return this.one;
  }

  private pluginIds(docs: ArrayLike<number>): string[] {
    return Array.from(docs, (doc) => this.docs.pluginIds[doc] as string);
  }

  private nextEpoch(): number {
    this.epoch = nextStamp(this.epoch, this.stamp);
    return this.epoch;
  }

  private nextProgressBase(): number {
    this.progressBase += PROGRESS_STEP;
    if (this.progressBase >= 0x7fffffff - PROGRESS_STEP) {
      this.progress.fill(0);
      this.progressBase = PROGRESS_STEP;
    }
    return this.progressBase;
  }

  private ensureCapacity(): void {
    const capacity = this.docs.capacity;
    if (capacity === this.capacity) return;
    this.capacity = capacity;
    this.stamp = new Int32Array(capacity);
    this.epoch = 0;
    this.progress = new Int32Array(capacity);
    this.progressBase = 0;
    this.best = new Uint8Array(capacity);
    this.score = new Uint16Array(capacity);
    this.nameHits = new Uint8Array(capacity);
    this.firstWord = new Int32Array(capacity);
    this.laterWord = new Int32Array(capacity);
    this.filtered = new Int32Array(capacity);
  }
}
