import { bitWords, forEachBit, hasBit, popcount32, setBit, widened } from './bitset';
import type { DocumentTable } from './documents';
import { dimensionsOf, FACET_LIMIT, TAG_FACET_LIMIT, TAGS, type FacetCounts, type FacetRequest } from './facet-dimensions';
import { TopValues } from './facet-top-values';
import { FacetValueLists, type ValueList } from './facet-value-lists';
import type { MatchedSet, QueryRunner } from './query-runner';
import type { TermTable } from './term-table';
import { nextStamp } from './stamps';
import { FIELD_FILTER } from './tokenize';
import type { CatalogueIndexQuery } from './types';

/** How counts are taken: `auto` picks the cheaper way for each set; specs force the others. */
export type FacetPath = 'auto' | 'narrow' | 'broad';

/**
 * Facet counts: for each dimension, how many documents each value would give if it were
 * clicked. Every catalogue filter takes one value (`tag` too), so clicking a value replaces the
 * dimension's own filter: a dimension is counted over the search and every OTHER filter
 * (disjunctive), and the selected value keeps its count beside its siblings'. Dimensions without
 * a selection share one set, the query's whole result.
 *
 * A set is counted one of two ways, whichever reads less: narrow, by visiting its documents and
 * tallying the filter keys among their term entries (then reading only the values touched);
 * broad, by AND-popcount of the set's bitset with each common value's bitset (only over the set's
 * non-zero words) and a bit test per posting of each rare value. The whole catalogue is counted
 * by the values' document frequencies. Each dimension walks only its live values (FacetValueLists);
 * the top values are kept in a bounded heap (TopValues), never a full sort. Scratch arrays are
 * kept between calls and reset by what was touched, never cleared whole.
 */
export class FacetCounter {
  private readonly values: FacetValueLists;
  /** Per term, the tally of a narrow count; per dimension number + 1, the mark of the set being counted. */
  private counts: Int32Array = new Int32Array(1024);
  private wantedDimensions = new Int32Array(16);
  private mark = 0;
  private touched: Int32Array = new Int32Array(1024);
  private baseBits = new Int32Array(0);
  private baseList = new Int32Array(0);
  private nonZero = new Int32Array(0);

  constructor(
    private readonly terms: TermTable,
    private readonly docs: DocumentTable,
    private readonly runner: QueryRunner,
    private readonly path: FacetPath = 'auto',
  ) {
    this.values = new FacetValueLists(terms);
  }

  count(query: CatalogueIndexQuery, request: FacetRequest): FacetCounts {
    this.catchUp();
    const dimensions = dimensionsOf(query, request);
    const limit = request.limit ?? FACET_LIMIT;
    const tagLimit = request.tagLimit ?? TAG_FACET_LIMIT;
    const tops = dimensions.map(
      (d) =>
        new TopValues(
          this.terms.strings,
          d.name === TAGS ? tagLimit : limit,
          d.selected === undefined ? -1 : (this.terms.idOf(d.keyPrefix + d.selected) ?? -1),
        ),
    );
    // One set for the dimensions without a selection, one for each with.
    const groups: Array<{ query: CatalogueIndexQuery; members: number[] }> = [];
    const unselected = dimensions.flatMap((d, i) => (d.selected === undefined ? [i] : []));
    if (unselected.length) groups.push({ query, members: unselected });
    dimensions.forEach((d, i) => {
      if (d.selected !== undefined) groups.push({ query: d.without(query), members: [i] });
    });
    for (const group of groups) {
      const lists = group.members.map((i) => this.values.listOf(dimensions[i].name));
      this.countSet(
        this.runner.matching(group.query),
        lists,
        group.members.map((i) => tops[i]),
      );
    }
    const facets: FacetCounts = {};
    dimensions.forEach((d, i) => (facets[d.name] = tops[i].values(this.values.valueAt, d.selected)));
    return facets;
  }

  approximateBytes(): number {
    return [this.counts, this.touched, this.baseBits, this.baseList, this.nonZero].reduce(
      (sum, a) => sum + a.byteLength,
      this.values.approximateBytes(),
    );
  }

  /** Offers each dimension's values with their counts in the set (zero counts left out). */
  private countSet(set: MatchedSet, lists: ReadonlyArray<ValueList | null>, tops: readonly TopValues[]): void {
    if (set.kind === 'none' || set.count === 0) return;
    const { df } = this.terms;
    if (set.kind === 'all') {
      lists.forEach((list, i) => this.values.forEachLive(list, (t) => tops[i].offer(t, df[t])));
      return;
    }
    if (this.narrowIsCheaper(set, lists)) {
      const [list, count] = set.kind === 'list' ? [set.list, set.count] : this.listOfBits(set.bits);
      this.tallyDocuments(list, count, lists, tops);
    } else {
      const bits = set.kind === 'bits' ? set.bits : this.bitsOf(set.list, set.count);
      this.popcountValues(bits, lists, tops);
    }
  }

  private narrowIsCheaper(set: MatchedSet & { kind: 'list' | 'bits' }, lists: ReadonlyArray<ValueList | null>): boolean {
    if (this.path !== 'auto') return this.path === 'narrow';
    const words = bitWords(this.docs.capacity);
    const perDocument = this.docs.live ? this.docs.liveEntries / this.docs.live : 0;
    const narrow = set.count * perDocument + (set.kind === 'bits' ? words : 0);
    let broad = set.kind === 'list' ? words + set.count : words;
    const span = Math.min(words, set.count);
    for (const list of lists) {
      if (!list) continue;
      if (list.changes !== this.terms.postingChanges) this.weigh(list);
      broad += list.common * span + list.rare;
    }
    return narrow <= broad;
  }

  /** The list's broad cost figures, read again after postings changed. */
  private weigh(list: ValueList): void {
    const { df, bits } = this.terms;
    let rare = 0;
    let common = 0;
    this.values.forEachLive(list, (t) => {
      if (bits[t]?.[0]) common++;
      else rare += df[t];
    });
    list.rare = rare;
    list.common = common;
    list.changes = this.terms.postingChanges;
  }

  /** Narrow: each listed document's filter keys, tallied for the wanted dimensions; then the values touched, offered. */
  private tallyDocuments(list: Int32Array, count: number, lists: ReadonlyArray<ValueList | null>, tops: readonly TopValues[]): void {
    this.mark = nextStamp(this.mark, this.wantedDimensions);
    const mark = this.mark;
    const { wantedDimensions: wanted, counts, touched } = this;
    const { dimensionOf } = this.values;
    const topOf: TopValues[] = [];
    lists.forEach((l, i) => {
      if (!l) return;
      wanted[l.id + 1] = mark;
      topOf[l.id + 1] = tops[i];
    });
    const { arena, forwardStart, forwardLength } = this.docs;
    let touchedCount = 0;
    for (let i = 0; i < count; i++) {
      const doc = list[i];
      const start = forwardStart[doc];
      const end = start + forwardLength[doc];
      for (let e = start; e < end; e++) {
        const entry = arena[e];
        if ((entry & 3) !== FIELD_FILTER) continue;
        const t = entry >>> 2;
        if (wanted[dimensionOf[t]] !== mark) continue;
        if (counts[t]++ === 0) touched[touchedCount++] = t;
      }
    }
    for (let i = 0; i < touchedCount; i++) {
      const t = touched[i];
      topOf[dimensionOf[t]].offer(t, counts[t]);
      counts[t] = 0;
    }
  }

  /** Broad: AND-popcount with a common value's bitset over the set's non-zero words; a bit test a posting for a rare value. */
  private popcountValues(set: Int32Array, lists: ReadonlyArray<ValueList | null>, tops: readonly TopValues[]): void {
    const { df, bits, lists: postingLists, single } = this.terms;
    if (this.nonZero.length < set.length) this.nonZero = new Int32Array(set.length);
    const nonZero = this.nonZero;
    let n = 0;
    for (let i = 0; i < set.length; i++) if (set[i] !== 0) nonZero[n++] = i;
    // Most words set: a straight pass reads faster than the list of them.
    const dense = n * 2 > set.length;
    lists.forEach((valueList, d) => {
      const top = tops[d];
      this.values.forEachLive(valueList, (t) => {
        const size = df[t];
        let count = 0;
        const valueBits = bits[t]?.[0];
        if (valueBits && dense) {
          const length = Math.min(valueBits.length, set.length);
          for (let i = 0; i < length; i++) {
            const x = set[i] & valueBits[i];
            if (x !== 0) count += popcount32(x);
          }
        } else if (valueBits) {
          const length = valueBits.length;
          for (let k = 0; k < n; k++) {
            const i = nonZero[k];
            if (i >= length) break;
            const x = set[i] & valueBits[i];
            if (x !== 0) count += popcount32(x);
          }
        } else {
          const postings = postingLists[t];
          if (postings) {
            for (let p = 0; p < size; p++) if (hasBit(set, postings[p] >> 2)) count++;
          } else if (hasBit(set, single[t] >> 2)) count = 1;
        }
        if (count > 0) top.offer(t, count);
      });
    });
  }

  private listOfBits(bits: Int32Array): [Int32Array, number] {
    if (this.baseList.length < this.docs.capacity) this.baseList = new Int32Array(this.docs.capacity);
    const list = this.baseList;
    let count = 0;
    forEachBit(bits, (doc) => (list[count++] = doc));
    return [list, count];
  }

  private bitsOf(list: Int32Array, count: number): Int32Array {
    const words = bitWords(this.docs.capacity);
    if (this.baseBits.length !== words) this.baseBits = new Int32Array(words);
    else this.baseBits.fill(0);
    for (let i = 0; i < count; i++) setBit(this.baseBits, list[i]);
    return this.baseBits;
  }

  /** Brings the value lists up to date with the terms, and the tallies and marks to their size. */
  private catchUp(): void {
    this.values.catchUp();
    const size = this.terms.strings.length;
    this.counts = widened(this.counts, size);
    this.touched = widened(this.touched, size);
    const marks = this.values.dimensions + 1;
    if (this.wantedDimensions.length < marks) {
      const bigger = new Int32Array(marks * 2);
      bigger.set(this.wantedDimensions);
      this.wantedDimensions = bigger;
    }
  }
}
