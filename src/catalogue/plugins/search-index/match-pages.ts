import type { DocumentTable } from './documents';
import { NAME_COVERED_BONUS } from './scoring';
import { ORDER_SLUG, type SortOrders } from './sort-orders';
import { nextStamp } from './stamps';

const SCORE_BITS = 13;
const EXACT_BIT = 1 << SCORE_BITS;
const VERIFIED_BIT = 1 << (SCORE_BITS + 1);
/** Set for a document that is not deprecated: deprecated ones come after every other. */
const CURRENT_BIT = 1 << (SCORE_BITS + 2);
const BUCKETS = 1 << (SCORE_BITS + 3);

/**
 * The page of a query's matches, in a kept order or by relevance: sorting the few candidates a
 * page spans when that is cheaper, else one scan of the order that stops at the page's end. Its
 * scratch arrays, like the query runner's, are tagged per use instead of cleared.
 */
export class MatchPages {
  private capacity = -1;
  private stamp = new Int32Array(0);
  private epoch = 0;
  private bucket = new Uint16Array(0);
  private readonly histogram = new Uint32Array(BUCKETS);

  constructor(
    private readonly docs: DocumentTable,
    private readonly orders: SortOrders,
  ) {}

  /** A page of the matches in a kept order: their ranks sorted when that is cheaper, else one scan of the order that stops at the page's end. */
  sortedPage(list: Int32Array, count: number, order: number, from: number, to: number): string[] {
    const ids = this.orders.order(order);
    if (gatherIsCheaper(count, count, to, ids.length)) {
      const rank = this.orders.rank(order);
      const ranks = new Int32Array(count);
      for (let i = 0; i < count; i++) ranks[i] = rank[list[i]];
      ranks.sort();
      return Array.from(ranks.subarray(from, to), (position) => this.docs.pluginIds[ids[position]] as string);
    }
    this.ensureCapacity();
    const epoch = this.nextEpoch();
    for (let i = 0; i < count; i++) this.stamp[list[i]] = epoch;
    return this.scan(ids, epoch, -1, from, to);
  }

  /**
   * A page by relevance. Each match gets one number: not deprecated first (the SQL's leading
   * `deprecated_at IS NOT NULL`), then verified (`verified_at IS NULL`), then the exact name, then the score; a histogram of those numbers
   * finds the few that the page spans, and within each, documents order by slug.
   */
  relevancePage(
    list: Int32Array,
    count: number,
    from: number,
    to: number,
    search: string | null,
    score: Uint16Array,
    nameHits: Uint8Array,
  ): string[] {
    const exactName = exactNameOf(search);
    const exactLength = exactName.length > 0 && exactName.length < 255 ? exactName.length : -1;
    this.ensureCapacity();
    const { docs, bucket, histogram, stamp } = this;
    const epoch = this.nextEpoch();
    let top = 0;
    let bottom = BUCKETS - 1;
    for (let i = 0; i < count; i++) {
      const doc = list[i];
      const covered = nameHits[doc] > 0 && nameHits[doc] >= docs.nameWords[doc] ? NAME_COVERED_BONUS : 0;
      const exact = docs.nameLength[doc] === exactLength && docs.names[doc] === exactName;
      const key =
        (docs.deprecated[doc] ? 0 : CURRENT_BIT) |
        (docs.verifiedNull[doc] ? 0 : VERIFIED_BIT) |
        (exact ? EXACT_BIT : 0) |
        Math.min(score[doc] + covered, EXACT_BIT - 1);
      stamp[doc] = epoch;
      bucket[doc] = key;
      histogram[key]++;
      if (key > top) top = key;
      if (key < bottom) bottom = key;
    }
    // The numbers the page spans: `high` down to `low`, starting at `start` in the whole order.
    let start = 0;
    let high = top;
    while (start + histogram[high] <= from) start += histogram[high--];
    let low = high;
    let end = start + histogram[high];
    while (end < to) end += histogram[--low];
    const page: string[] = [];
    const slugOrder = this.orders.order(ORDER_SLUG);
    if (gatherIsCheaper(count, end - start, to - start, slugOrder.length)) {
      // One pass over the matches, then sort by (number descending, slug).
      const rank = this.orders.rank(ORDER_SLUG);
      const keys = new Float64Array(end - start);
      let n = 0;
      for (let i = 0; i < count; i++) {
        const key = bucket[list[i]];
        if (key >= low && key <= high) keys[n++] = (BUCKETS - 1 - key) * 0x1000000 + rank[list[i]];
      }
      keys.sort();
      for (let i = from - start; i < to - start; i++) page.push(docs.pluginIds[slugOrder[keys[i] % 0x1000000]] as string);
    } else {
      let position = start;
      for (let key = high; key >= low; key--) {
        const size = histogram[key];
        if (size > 0) page.push(...this.scan(slugOrder, epoch, key, Math.max(0, from - position), Math.min(size, to - position)));
        position += size;
      }
    }
    histogram.fill(0, bottom, top + 1);
    return page;
  }

  /** Positions `[from, to)` among the documents of `order` stamped `epoch` (and, unless key is -1, whose relevance number is `key`). */
  private scan(order: Int32Array, epoch: number, key: number, from: number, to: number): string[] {
    const { stamp, bucket, docs } = this;
    const page: string[] = [];
    let seen = 0;
    for (let position = 0; position < order.length && seen < to; position++) {
      const doc = order[position];
      if (stamp[doc] !== epoch || (key >= 0 && bucket[doc] !== key)) continue;
      if (seen++ >= from) page.push(docs.pluginIds[doc] as string);
    }
    return page;
  }

  approximateBytes(): number {
    return this.stamp.byteLength + this.bucket.byteLength + this.histogram.byteLength;
  }

  private nextEpoch(): number {
    this.epoch = nextStamp(this.epoch, this.stamp);
    return this.epoch;
  }

  private ensureCapacity(): void {
    const capacity = this.docs.capacity;
    if (capacity === this.capacity) return;
    this.capacity = capacity;
    this.stamp = new Int32Array(capacity);
    this.epoch = 0;
    this.bucket = new Uint16Array(capacity);
  }
}

/** The name an exact match must have: the search as typed, trimmed and lowercased. */
export function exactNameOf(search: string | null): string {
  return search === null ? '' : search.trim().toLowerCase();
}

/**
 * Whether sorting the `span` candidates (found in one pass over `count` matches) costs less than
 * scanning a kept order of `catalogue` documents until `needed` of them, spread evenly, are seen.
 */
function gatherIsCheaper(count: number, span: number, needed: number, catalogue: number): boolean {
  const scan = span === 0 ? 0 : (catalogue * needed) / span;
  return count + span * Math.log2(span + 2) < scan;
}
