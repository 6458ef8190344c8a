import { isDeprecated, toMillis, type DocumentTable } from './documents';
import type { SearchDocument } from './types';
import { mergeSortSteps } from './merge-sort';

/** The kept orders: the catalogue's four sorts, and slug order for ties within a relevance rank. */
export const ORDER_UPDATED = 0;
export const ORDER_NEW = 1;
export const ORDER_NAME = 2;
export const ORDER_FEATURED = 3;
export const ORDER_SLUG = 4;
const ORDER_COUNT = 5;
/** Every kept order, as a bit mask. */
export const ALL_ORDERS = (1 << ORDER_COUNT) - 1;

const descending = (a: number, b: number): number => (a === b ? 0 : a > b ? -1 : 1);

/**
 * Every live document in each order, as arrays of internal ids, kept sorted under upserts and
 * removals (binary search, then one memmove per order). The keys follow the SQL's ORDER BY:
 * `deprecated_at IS NOT NULL` first (deprecated plugins sink below all others), then
 * `verified_at IS NULL`, then the sort's keys, then the slug. A rank array per order
 * (document id -> position) is rebuilt lazily, in one pass, after a change.
 */
export class SortOrders {
  private orders: Int32Array[] = Array.from({ length: ORDER_COUNT }, () => new Int32Array(0));
  private ranks: Int32Array[] = Array.from({ length: ORDER_COUNT }, () => new Int32Array(0));
  private readonly ranksFresh: boolean[] = new Array<boolean>(ORDER_COUNT).fill(false);
  private length = 0;
  /** Slug positions while a bulk build sorts: numbers compare faster than strings. */
  private slugRank: Int32Array | null = null;

  constructor(private readonly docs: DocumentTable) {}

  /** The ids of every live document in `order`, best first (a view). */
  order(order: number): Int32Array {
    return this.orders[order].subarray(0, this.length);
  }

  /** Each document's position in `order`. */
  rank(order: number): Int32Array {
    if (!this.ranksFresh[order]) {
      if (this.ranks[order].length < this.docs.capacity) this.ranks[order] = new Int32Array(this.docs.capacity);
      const ids = this.orders[order];
      const rank = this.ranks[order];
      for (let position = 0; position < this.length; position++) rank[ids[position]] = position;
      this.ranksFresh[order] = true;
    }
    return this.ranks[order];
  }

  /** Puts `id` into the orders of `mask` by its current keys. */
  insert(id: number, mask = ALL_ORDERS): void {
    this.reserve(this.length + 1);
    // A partial move: those orders hold one id less than the others until it is back.
    const n = mask === ALL_ORDERS ? this.length : this.length - 1;
    for (let order = 0; order < ORDER_COUNT; order++) {
      if (!(mask & (1 << order))) continue;
      const ids = this.orders[order];
      const at = this.bound(order, id, n);
      ids.copyWithin(at + 1, at, n);
      ids[at] = id;
      this.ranksFresh[order] = false;
    }
    if (mask === ALL_ORDERS) this.length++;
  }

  /** Takes `id` out of the orders of `mask`; its keys must still be the ones it was inserted with. */
  remove(id: number, mask = ALL_ORDERS): void {
    for (let order = 0; order < ORDER_COUNT; order++) {
      if (!(mask & (1 << order))) continue;
      const ids = this.orders[order];
      const at = this.bound(order, id, this.length);
      ids.copyWithin(at, at + 1, this.length);
      this.ranksFresh[order] = false;
    }
    if (mask === ALL_ORDERS) this.length--;
  }

  /**
   * The orders whose keys for `id` differ in `doc`: a publish moves a plugin in `updated` and
   * `featured` only, so an upsert leaves the other orders' arrays alone.
   */
  changedOrders(id: number, doc: SearchDocument): number {
    const { docs } = this;
    if (
      docs.slugs[id] !== doc.slug ||
      docs.deprecated[id] !== (isDeprecated(doc) ? 1 : 0) ||
      docs.verifiedNull[id] !== (doc.verifiedAt === null || doc.verifiedAt === undefined ? 1 : 0)
    )
      return ALL_ORDERS;
    const released = docs.released[id] !== (toMillis(doc.latestReleaseAt) ?? -Infinity);
    let mask = 0;
    if (released) mask |= 1 << ORDER_UPDATED;
    if (docs.created[id] !== (toMillis(doc.createdAt) ?? -Infinity)) mask |= 1 << ORDER_NEW;
    if (docs.names[id] !== doc.name.toLowerCase()) mask |= 1 << ORDER_NAME;
    if (released || docs.featured[id] !== (doc.featured ? 1 : 0)) mask |= 1 << ORDER_FEATURED;
    return mask;
  }

  /** Sorts every live document from scratch, pausing between slices. */
  *rebuild(): Generator<void, void, void> {
    this.reserve(this.docs.live);
    this.length = 0;
    const slug = this.orders[ORDER_SLUG];
    for (let id = 0; id < this.docs.highWater; id++) if (this.docs.isLive(id)) slug[this.length++] = id;
    yield* mergeSortSteps(slug, this.length, (a, b) => this.compare(ORDER_SLUG, a, b));
    const slugRank = new Int32Array(this.docs.capacity);
    for (let position = 0; position < this.length; position++) slugRank[slug[position]] = position;
    this.slugRank = slugRank;
    try {
      for (let order = 0; order < ORDER_COUNT; order++) {
        this.ranksFresh[order] = false;
        if (order === ORDER_SLUG) continue;
        this.orders[order].set(slug.subarray(0, this.length));
        yield* mergeSortSteps(this.orders[order], this.length, (a, b) => this.compare(order, a, b));
      }
    } finally {
      this.slugRank = null;
    }
  }

  approximateBytes(): number {
    return [...this.orders, ...this.ranks].reduce((sum, array) => sum + array.byteLength, 0);
  }

  compare(order: number, a: number, b: number): number {
    const key =
      this.docs.deprecated[a] - this.docs.deprecated[b] ||
      this.docs.verifiedNull[a] - this.docs.verifiedNull[b] ||
      this.sortKey(order, a, b);
    if (key !== 0) return key;
    if (this.slugRank) return this.slugRank[a] - this.slugRank[b];
    const slugA = this.docs.slugs[a];
    const slugB = this.docs.slugs[b];
    return slugA < slugB ? -1 : slugA > slugB ? 1 : a - b;
  }

  private sortKey(order: number, a: number, b: number): number {
    const { docs } = this;
    switch (order) {
      case ORDER_UPDATED:
        return descending(docs.released[a], docs.released[b]);
      case ORDER_NEW:
        return descending(docs.created[a], docs.created[b]);
      case ORDER_NAME:
        return docs.names[a] < docs.names[b] ? -1 : docs.names[a] > docs.names[b] ? 1 : 0;
      case ORDER_FEATURED:
        return docs.featured[b] - docs.featured[a] || descending(docs.released[a], docs.released[b]);
      default:
        return 0;
    }
  }

  /** The position of `id` in `order` if it is there, else where it would go. */
  private bound(order: number, id: number, length: number): number {
    const ids = this.orders[order];
    let low = 0;
    let high = length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(order, ids[middle], id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private reserve(length: number): void {
    if (this.orders[0].length >= length) return;
    const capacity = Math.max(length, Math.ceil(this.orders[0].length * 1.5), 64);
    this.orders = this.orders.map((ids) => {
      const bigger = new Int32Array(capacity);
      bigger.set(ids.subarray(0, this.length));
      return bigger;
    });
  }
}
