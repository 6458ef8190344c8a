import type { FacetValue } from './facet-dimensions';

/**
 * The best `limit` values of one dimension as they are offered: a heap of the kept ones, worst
 * on top (fewest documents, then the last value in order), so a value that cannot make the list
 * costs one comparison. Values of a dimension share their key's prefix, so keys compare as the
 * values do and nothing is sliced but the values kept. Also notes the selected value's count.
 */
export class TopValues {
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
    const order = this.heapTerms
      .map((t, i) => i)
      .sort((a, b) => (this.worse(this.heapTerms[a], this.heapCounts[a], this.heapTerms[b], this.heapCounts[b]) ? 1 : -1));
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
      for (const child of [2 * i + 1, 2 * i + 2])
        if (child < n && this.worse(terms[child], counts[child], terms[worst], counts[worst])) worst = child;
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
