import { widened } from './bitset';
import { dimensionOfKey } from './facet-dimensions';
import type { TermTable } from './term-table';

/** One dimension's live values (filter keys in at least one document), in no order. */
export interface ValueList {
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
 * Which terms are facet values, of which dimension, and each dimension's live values. Terms are
 * classified as they appear (terms are only ever added). A value whose last document left is
 * dropped from its list by the next walk over it, and the term table queues every filter key whose
 * postings go from none to one, so a value that comes back is listed again.
 */
export class FacetValueLists {
  /** Terms classified so far. */
  private scanned = 0;
  /** Per term that is a facet value: where its value starts in the term, its dimension's number + 1, its place in that dimension's list + 1. */
  valueAt: Int32Array = new Int32Array(1024);
  dimensionOf: Int32Array = new Int32Array(1024);
  private slot: Int32Array = new Int32Array(1024);
  private readonly dimensionIds = new Map<string, number>();
  /** Per dimension number, its live values. */
  private readonly lists: ValueList[] = [];

  constructor(private readonly terms: TermTable) {}

  /** How many dimensions have been seen. */
  get dimensions(): number {
    return this.lists.length;
  }

  listOf(name: string): ValueList | null {
    const id = this.dimensionIds.get(name);
    return id === undefined ? null : this.lists[id];
  }

  /** Calls `visit` with each value of the list, dropping those in no document any more. */
  forEachLive(list: ValueList | null, visit: (t: number) => void): void {
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

  /** Sorts the terms added since the last call into their dimensions, and puts back in its list each value that came back. */
  catchUp(): void {
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

  approximateBytes(): number {
    const lists = this.lists.reduce((sum, list) => sum + list.terms.byteLength, 0);
    return [this.valueAt, this.dimensionOf, this.slot].reduce((sum, a) => sum + a.byteLength, lists);
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
    this.valueAt = widened(this.valueAt, size);
    this.dimensionOf = widened(this.dimensionOf, size);
    this.slot = widened(this.slot, size);
  }
}
