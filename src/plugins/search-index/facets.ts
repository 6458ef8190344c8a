import { bitWords, hasBit, popcount32, setBit } from './bitset';
import { forEachBit } from './bitset-queries';
import type { DocumentTable } from './documents';
import type { MatchedSet, QueryRunner } from './query-runner';
import type { TermTable } from './term-table';
import { nextStamp } from './stamps';
import { FIELD_FILTER, filterKeys } from './tokenize';
import type { CatalogueIndexQuery } from './types';

/** The facets a catalogue query asks for: kind, category and tags always, and these extension keys. */
export interface FacetRequest {
  /** Extension keys (`stars` for `ext.stars`) the registry declares as an enum or a boolean. */
  extensionKeys: readonly string[];
  /** Values kept per dimension (default 20; tags 30). */
  limit?: number;
  tagLimit?: number;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** Per dimension (`kind`, `category`, `tags`, `ext.<key>`): its values by count, most first. */
export type FacetCounts = Record<string, FacetValue[]>;

/** How counts are taken: `auto` picks the cheaper way for each set; specs force the others. */
export type FacetPath = 'auto' | 'narrow' | 'broad';

export const FACET_LIMIT = 20;
export const TAG_FACET_LIMIT = 30;

const KIND = 'kind';
const CATEGORY = 'category';
const TAGS = 'tags';

/** The dimension a filter-key term belongs to, and where its value starts, or null for other terms. */
function dimensionOfKey(term: string): { name: string; valueAt: number } | null {
  if (term.charCodeAt(0) !== 1) return null;
  switch (term.charAt(1)) {
    case 'k':
      return { name: KIND, valueAt: 2 };
    case 'c':
      return { name: CATEGORY, valueAt: 2 };
    case 't':
      return { name: TAGS, valueAt: 2 };
    case 'e': {
      const end = term.indexOf('\u0000', 2);
      return end < 0 ? null : { name: `ext.${term.slice(2, end)}`, valueAt: end + 1 };
    }
    default:
      return null;
  }
}

/** A dimension and the filter of the query that picks one of its values. */
interface Dimension {
  name: string;
  /** What every filter key of its values starts with (values compare as their keys do). */
  keyPrefix: string;
  selected: string | undefined;
  /** The query without that filter: clicking another value replaces it. */
  without: (query: CatalogueIndexQuery) => CatalogueIndexQuery;
}

function dimensionsOf(query: CatalogueIndexQuery, request: FacetRequest): Dimension[] {
  const dimensions: Dimension[] = [
    { name: KIND, keyPrefix: filterKeys.kind(''), selected: query.kind, without: (q) => ({ ...q, kind: undefined }) },
    { name: CATEGORY, keyPrefix: filterKeys.category(''), selected: query.category, without: (q) => ({ ...q, category: undefined }) },
    { name: TAGS, keyPrefix: filterKeys.tag(''), selected: query.tag, without: (q) => ({ ...q, tag: undefined }) },
  ];
  for (const key of new Set(request.extensionKeys)) {
    dimensions.push({
      name: `ext.${key}`,
      keyPrefix: filterKeys.extension(key, ''),
      selected: query.ext?.[key],
      without: (q) => {
        const ext = { ...q.ext };
        delete ext[key];
        return { ...q, ext };
      },
    });
  }
  return dimensions;
}

/**
 * The best `limit` values of one dimension as they are offered: a heap of the kept ones, worst
 * on top (fewest documents, then the last value in order), so a value that cannot make the list
 * costs one comparison. Values of a dimension share their key's prefix, so keys compare as the
 * values do and nothing is sliced but the values kept. Also notes the selected value's count.
 */
class TopValues {
  private readonly heapTerms: number[] = [];
  private readonly heapCounts: number[] = [];
  selectedCount = 0;

  constructor(
    private readonly strings: readonly string[],
    private readonly limit: number,
    private readonly selectedTerm: number,
  ) {}

  offer(t: number, count: number): void {
    if (t === this.selectedTerm) this.selectedCount = count;
    const { heapTerms: terms, heapCounts: counts } = this;
    if (terms.length < this.limit) {
      terms.push(t);
      counts.push(count);
      this.up(terms.length - 1);
    } else if (this.limit > 0 && this.worse(terms[0], counts[0], t, count)) {
      terms[0] = t;
      counts[0] = count;
      this.down(0);
    }
  }

  /** Most documents first, then by value; the selected value at the end when it did not make the list. */
  values(valueAt: Int32Array, selected: string | undefined): FacetValue[] {
    const order = this.heapTerms.map((t, i) => i).sort((a, b) => (this.worse(this.heapTerms[a], this.heapCounts[a], this.heapTerms[b], this.heapCounts[b]) ? 1 : -1));
    const top = order.map((i) => ({ value: this.strings[this.heapTerms[i]].slice(valueAt[this.heapTerms[i]]), count: this.heapCounts[i] }));
    // The selected value is always shown (with 0 when nothing carries it), so it can be cleared.
    if (selected !== undefined && !top.some((v) => v.value === selected)) top.push({ value: selected, count: this.selectedCount });
    return top;
  }

  /** Whether value `a` (with `ca` documents) ranks below `b`. */
  private worse(a: number, ca: number, b: number, cb: number): boolean {
    if (ca !== cb) return ca < cb;
    return this.strings[a] > this.strings[b];
  }

  private up(i: number): void {
    const { heapTerms: terms, heapCounts: counts } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(terms[i], counts[i], terms[parent], counts[parent])) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const { heapTerms: terms, heapCounts: counts } = this;
    const n = terms.length;
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) if (child < n && this.worse(terms[child], counts[child], terms[worst], counts[worst])) worst = child;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    const { heapTerms: terms, heapCounts: counts } = this;
    [terms[i], terms[j]] = [terms[j], terms[i]];
    [counts[i], counts[j]] = [counts[j], counts[i]];
  }
}

/** One dimension's live values (filter keys in at least one document), in no order. */
interface ValueList {
  /** Its dimension's number. */
  id: number;
  terms: Int32Array;
  length: number;
  /** The broad path's cost over the list (`rare`: postings of values without a bitset; `common`: values with one), as of `changes`. */
  rare: number;
  common: number;
  changes: number;
}

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
 * by the values' document frequencies. Each dimension walks only its live values: a value whose
 * last document left is dropped from the list by the next walk, and the term table tells which
 * came back. The top values are kept in a bounded heap, never a full sort. Scratch arrays are
 * kept between calls and reset by what was touched, never cleared whole.
 */
export class FacetCounter {
  /** Terms classified so far (terms are only ever added). */
  private scanned = 0;
  /** Per term that is a facet value: where its value starts in the term, its dimension's number + 1, its place in that dimension's list + 1. */
  private valueAt = new Int32Array(1024);
  private dimensionOf = new Int32Array(1024);
  private slot = new Int32Array(1024);
  private readonly dimensionIds = new Map<string, number>();
  /** Per dimension number, its live values. */
  private readonly lists: ValueList[] = [];
  /** Per term, the tally of a narrow count; per dimension number + 1, the mark of the set being counted. */
  private counts = new Int32Array(1024);
  private wantedDimensions = new Int32Array(16);
  private mark = 0;
  private touched = new Int32Array(1024);
  private baseBits = new Int32Array(0);
  private baseList = new Int32Array(0);
  private nonZero = new Int32Array(0);

  constructor(
    private readonly terms: TermTable,
    private readonly docs: DocumentTable,
    private readonly runner: QueryRunner,
    private readonly path: FacetPath = 'auto',
  ) {}

  count(query: CatalogueIndexQuery, request: FacetRequest): FacetCounts {
    this.catchUp();
    const dimensions = dimensionsOf(query, request);
    const limit = request.limit ?? FACET_LIMIT;
    const tagLimit = request.tagLimit ?? TAG_FACET_LIMIT;
    const tops = dimensions.map((d) => new TopValues(this.terms.strings, d.name === TAGS ? tagLimit : limit, d.selected === undefined ? -1 : (this.terms.idOf(d.keyPrefix + d.selected) ?? -1)));
    // One set for the dimensions without a selection, one for each with.
    const groups: Array<{ query: CatalogueIndexQuery; members: number[] }> = [];
    const unselected = dimensions.flatMap((d, i) => (d.selected === undefined ? [i] : []));
    if (unselected.length) groups.push({ query, members: unselected });
    dimensions.forEach((d, i) => {
      if (d.selected !== undefined) groups.push({ query: d.without(query), members: [i] });
    });
    for (const group of groups) {
      const lists = group.members.map((i) => this.listOf(dimensions[i].name));
      this.countSet(
        this.runner.matching(group.query),
        lists,
        group.members.map((i) => tops[i]),
      );
    }
    const facets: FacetCounts = {};
    dimensions.forEach((d, i) => (facets[d.name] = tops[i].values(this.valueAt, d.selected)));
    return facets;
  }

  approximateBytes(): number {
    const lists = this.lists.reduce((sum, list) => sum + list.terms.byteLength, 0);
    return [this.valueAt, this.dimensionOf, this.slot, this.counts, this.touched, this.baseBits, this.baseList, this.nonZero].reduce((sum, a) => sum + a.byteLength, lists);
  }

  private listOf(name: string): ValueList | null {
    const id = this.dimensionIds.get(name);
    return id === undefined ? null : this.lists[id];
  }

  /** Offers each dimension's values with their counts in the set (zero counts left out). */
  private countSet(set: MatchedSet, lists: ReadonlyArray<ValueList | null>, tops: readonly TopValues[]): void {
    if (set.kind === 'none' || set.count === 0) return;
    const { df } = this.terms;
    if (set.kind === 'all') {
      lists.forEach((list, i) => this.forEachLive(list, (t) => tops[i].offer(t, df[t])));
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

  /** Calls `visit` with each value of the list, dropping those in no document any more. */
  private forEachLive(list: ValueList | null, visit: (t: number) => void): void {
    if (!list) return;
    const { df } = this.terms;
    const { terms } = list;
    // Backwards, so that the last value, moved into a dropped one's place, has been visited.
    for (let k = list.length - 1; k >= 0; k--) {
      const t = terms[k];
      if (df[t] > 0) {
        visit(t);
        continue;
      }
      const last = terms[--list.length];
      terms[k] = last;
      this.slot[last] = k + 1;
      this.slot[t] = 0;
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
    this.forEachLive(list, (t) => {
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
    const { wantedDimensions: wanted, dimensionOf, counts, touched } = this;
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
      this.forEachLive(valueList, (t) => {
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

  /** Sorts the terms added since the last call into their dimensions, and puts back in its list each value that came back. */
  private catchUp(): void {
    const { strings, df } = this.terms;
    this.ensureTerms();
    for (let t = this.scanned; t < strings.length; t++) {
      const found = dimensionOfKey(strings[t]);
      if (!found) continue;
      let id = this.dimensionIds.get(found.name);
      if (id === undefined) {
        id = this.lists.length;
        this.dimensionIds.set(found.name, id);
        this.lists.push({ id, terms: new Int32Array(16), length: 0, rare: 0, common: 0, changes: -1 });
        if (this.wantedDimensions.length < id + 2) {
          const bigger = new Int32Array((id + 2) * 2);
          bigger.set(this.wantedDimensions);
          this.wantedDimensions = bigger;
        }
      }
      this.dimensionOf[t] = id + 1;
      this.valueAt[t] = found.valueAt;
    }
    const fromScratch = this.terms.revivedOverflow;
    const revived = this.terms.revived;
    this.terms.revived = [];
    this.terms.revivedOverflow = false;
    if (fromScratch) {
      for (let t = 0; t < strings.length; t++) if (this.dimensionOf[t] && df[t] > 0) this.enlist(t);
    } else {
      for (let t = this.scanned; t < strings.length; t++) if (this.dimensionOf[t] && df[t] > 0) this.enlist(t);
      for (const t of revived) if (t < this.scanned && this.dimensionOf[t] && df[t] > 0) this.enlist(t);
    }
    this.scanned = strings.length;
  }

  /** Puts a live value in its dimension's list (once). */
  private enlist(t: number): void {
    if (this.slot[t] !== 0) return;
    const list = this.lists[this.dimensionOf[t] - 1];
    if (list.length === list.terms.length) {
      const bigger = new Int32Array(list.length * 2);
      bigger.set(list.terms);
      list.terms = bigger;
    }
    list.terms[list.length++] = t;
    this.slot[t] = list.length;
    list.changes = -1;
  }

  private ensureTerms(): void {
    const size = this.terms.strings.length;
    if (this.counts.length >= size) return;
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const bigger = new Int32Array(Math.max(size, Math.ceil(a.length * 1.5)));
      bigger.set(a);
      return bigger;
    };
    this.valueAt = grow(this.valueAt);
    this.dimensionOf = grow(this.dimensionOf);
    this.slot = grow(this.slot);
    this.counts = grow(this.counts);
    this.touched = grow(this.touched);
  }
}
