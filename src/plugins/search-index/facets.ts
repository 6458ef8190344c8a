import { bitWords, hasBit, popcount32, setBit } from './bitset';
import { forEachBit } from './bitset-queries';
import type { DocumentTable } from './documents';
import type { MatchedSet, QueryRunner } from './query-runner';
import type { TermTable } from './term-table';
import { nextStamp } from './stamps';
import { FIELD_FILTER } from './tokenize';
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
  selected: string | undefined;
  /** The query without that filter: clicking another value replaces it. */
  without: (query: CatalogueIndexQuery) => CatalogueIndexQuery;
}

function dimensionsOf(query: CatalogueIndexQuery, request: FacetRequest): Dimension[] {
  const dimensions: Dimension[] = [
    { name: KIND, selected: query.kind, without: (q) => ({ ...q, kind: undefined }) },
    { name: CATEGORY, selected: query.category, without: (q) => ({ ...q, category: undefined }) },
    { name: TAGS, selected: query.tag, without: (q) => ({ ...q, tag: undefined }) },
  ];
  for (const key of new Set(request.extensionKeys)) {
    dimensions.push({
      name: `ext.${key}`,
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
 * Facet counts: for each dimension, how many documents each value would give if it were
 * clicked. Every catalogue filter takes one value (`tag` too), so clicking a value replaces the
 * dimension's own filter: a dimension is counted over the search and every OTHER filter
 * (disjunctive), and the selected value keeps its count beside its siblings'. Dimensions without
 * a selection share one set, the query's whole result.
 *
 * A set is counted one of two ways, whichever reads less: narrow, by visiting its documents and
 * tallying the filter keys among their term entries; broad, by AND-popcount of the set's bitset
 * with each common value's bitset (only over the set's non-zero words) and a bit test per posting
 * of each rare value. The whole catalogue is counted by the values' document frequencies. Scratch
 * arrays are kept between calls and reset by what was touched, never cleared whole.
 */
export class FacetCounter {
  /** Terms classified so far (terms are only ever added). */
  private scanned = 0;
  /** Per term that is a facet value: where its value starts in the term. */
  private valueAt = new Int32Array(1024);
  private readonly dimensionIds = new Map<string, number>();
  /** Per dimension number, its value terms. */
  private readonly values: number[][] = [];
  /** Per term, the tally of a narrow count and the mark of the set being counted. */
  private counts = new Int32Array(1024);
  private wanted = new Int32Array(1024);
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
    this.classifyNewTerms();
    const dimensions = dimensionsOf(query, request);
    // One set for the dimensions without a selection, one for each with.
    const groups: Array<{ query: CatalogueIndexQuery; dimensions: Dimension[] }> = [];
    const unselected = dimensions.filter((d) => d.selected === undefined);
    if (unselected.length) groups.push({ query, dimensions: unselected });
    for (const d of dimensions) if (d.selected !== undefined) groups.push({ query: d.without(query), dimensions: [d] });
    const counted = new Map<string, Map<number, number>>();
    for (const group of groups) {
      const valueTerms = group.dimensions.map((d) => this.valueTermsOf(d.name));
      const tallies = this.countSet(this.runner.matching(group.query), valueTerms);
      group.dimensions.forEach((d, i) => counted.set(d.name, tallies[i]));
    }
    const limit = request.limit ?? FACET_LIMIT;
    const tagLimit = request.tagLimit ?? TAG_FACET_LIMIT;
    const facets: FacetCounts = {};
    for (const d of dimensions) facets[d.name] = this.topValues(counted.get(d.name) as Map<number, number>, d.selected, d.name === TAGS ? tagLimit : limit);
    return facets;
  }

  approximateBytes(): number {
    return [this.valueAt, this.counts, this.wanted, this.touched, this.baseBits, this.baseList, this.nonZero].reduce((sum, a) => sum + a.byteLength, 0) + this.scanned * 8;
  }

  private valueTermsOf(name: string): readonly number[] {
    const id = this.dimensionIds.get(name);
    return id === undefined ? [] : this.values[id];
  }

  /** Per dimension, its value terms' counts in the set (zero counts left out). */
  private countSet(set: MatchedSet, valueTerms: ReadonlyArray<readonly number[]>): Array<Map<number, number>> {
    const { df } = this.terms;
    const out = valueTerms.map(() => new Map<number, number>());
    if (set.kind === 'none' || set.count === 0) return out;
    if (set.kind === 'all') {
      valueTerms.forEach((terms, i) => {
        for (const t of terms) if (df[t] > 0) out[i].set(t, df[t]);
      });
      return out;
    }
    if (this.narrowIsCheaper(set, valueTerms)) {
      const [list, count] = set.kind === 'list' ? [set.list, set.count] : this.listOf(set.bits);
      this.tallyDocuments(list, count, valueTerms, out);
    } else {
      const bits = set.kind === 'bits' ? set.bits : this.bitsOf(set.list, set.count);
      this.popcountValues(bits, valueTerms, out);
    }
    return out;
  }

  private narrowIsCheaper(set: MatchedSet & { kind: 'list' | 'bits' }, valueTerms: ReadonlyArray<readonly number[]>): boolean {
    if (this.path !== 'auto') return this.path === 'narrow';
    const { df, bits } = this.terms;
    const words = bitWords(this.docs.capacity);
    const perDocument = this.docs.live ? this.docs.liveEntries / this.docs.live : 0;
    const narrow = set.count * perDocument + (set.kind === 'bits' ? words : 0);
    let broad = set.kind === 'list' ? words + set.count : words;
    const span = Math.min(words, set.count);
    for (const terms of valueTerms) for (const t of terms) if (df[t] > 0) broad += bits[t]?.[0] ? span : df[t];
    return narrow <= broad;
  }

  /** Narrow: each listed document's filter keys, tallied for the wanted terms. */
  private tallyDocuments(list: Int32Array, count: number, valueTerms: ReadonlyArray<readonly number[]>, out: Array<Map<number, number>>): void {
    this.ensureTerms();
    this.mark = nextStamp(this.mark, this.wanted);
    const mark = this.mark;
    const { wanted, counts, touched } = this;
    for (const terms of valueTerms) for (const t of terms) wanted[t] = mark;
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
        if (wanted[t] !== mark) continue;
        if (counts[t]++ === 0) touched[touchedCount++] = t;
      }
    }
    valueTerms.forEach((terms, i) => {
      for (const t of terms) if (counts[t] > 0) out[i].set(t, counts[t]);
    });
    for (let i = 0; i < touchedCount; i++) counts[touched[i]] = 0;
  }

  /** Broad: AND-popcount with a common value's bitset over the set's non-zero words; a bit test a posting for a rare value. */
  private popcountValues(set: Int32Array, valueTerms: ReadonlyArray<readonly number[]>, out: Array<Map<number, number>>): void {
    const { df, bits, lists, single } = this.terms;
    if (this.nonZero.length < set.length) this.nonZero = new Int32Array(set.length);
    const nonZero = this.nonZero;
    let n = 0;
    for (let i = 0; i < set.length; i++) if (set[i] !== 0) nonZero[n++] = i;
    // Most words set: a straight pass reads faster than the list of them.
    const dense = n * 2 > set.length;
    valueTerms.forEach((terms, d) => {
      for (const t of terms) {
        const size = df[t];
        if (size === 0) continue;
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
          const postings = lists[t];
          if (postings) {
            for (let p = 0; p < size; p++) if (hasBit(set, postings[p] >> 2)) count++;
          } else if (hasBit(set, single[t] >> 2)) count = 1;
        }
        if (count > 0) out[d].set(t, count);
      }
    });
  }

  private listOf(bits: Int32Array): [Int32Array, number] {
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

  private topValues(counts: Map<number, number>, selected: string | undefined, limit: number): FacetValue[] {
    const { strings } = this.terms;
    const all: FacetValue[] = [];
    for (const [t, count] of counts) all.push({ value: strings[t].slice(this.valueAt[t]), count });
    all.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const top = all.slice(0, limit);
    // The selected value is always shown (with 0 when nothing carries it), so it can be cleared.
    if (selected !== undefined && !top.some((v) => v.value === selected)) top.push({ value: selected, count: all.find((v) => v.value === selected)?.count ?? 0 });
    return top;
  }

  /** Sorts the terms added since the last call into their dimensions. */
  private classifyNewTerms(): void {
    const { strings } = this.terms;
    if (this.scanned === strings.length) return;
    this.ensureTerms();
    for (let t = this.scanned; t < strings.length; t++) {
      const found = dimensionOfKey(strings[t]);
      if (!found) continue;
      let id = this.dimensionIds.get(found.name);
      if (id === undefined) {
        id = this.values.length;
        this.dimensionIds.set(found.name, id);
        this.values.push([]);
      }
      this.values[id].push(t);
      this.valueAt[t] = found.valueAt;
    }
    this.scanned = strings.length;
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
    this.counts = grow(this.counts);
    this.wanted = grow(this.wanted);
    this.touched = grow(this.touched);
  }
}
