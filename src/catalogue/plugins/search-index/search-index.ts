import { bitWords } from './bitset';
import { DocumentTable } from './documents';
import { runSteps } from './merge-sort';
import { QueryRunner } from './query-runner';
import { SortOrders } from './sort-orders';
import { TermTable } from './term-table';
import { DocumentIndexer } from './indexer';
import { FacetCounter, type FacetPath } from './facet-counter';
import type { FacetCounts, FacetRequest } from './facet-dimensions';
import { FIELD_FILTER, FIELD_README } from './tokenize';
import type { CatalogueIndexPage, CatalogueIndexQuery, SearchDocument } from './types';

export interface SearchIndexOptions {
  /**
   * A search whose rarest word has postings for more than this share of the catalogue runs on
   * bitsets, a narrower one document by document (default 1/8). Both give the same answers:
   * specs set 0 or Infinity to check each path.
   */
  broadShare?: number;
  /** How facets are counted (default `auto`: the cheaper way for each set); specs force each path. */
  facetPath?: FacetPath;
}

export interface SlicedBuildOptions extends SearchIndexOptions {
  /** Synchronous work between two pauses, in ms (default 10). */
  sliceMs?: number;
  /** How to hand the event loop back (default: setImmediate). */
  pause?: () => Promise<void>;
  /** A monotonic clock in ms (default: performance.now). */
  now?: () => number;
}

/**
 * The catalogue in memory, for search, filters, sorts and exact totals without a database round
 * trip: framework-free, no I/O. Build it whole (`build`, or `buildInSlices` to stay off the event
 * loop), then keep it current with `upsert` and `remove`, each costing the words of one document
 * plus a memmove per kept order.
 */
export class CatalogueSearchIndex {
  private terms = new TermTable();
  private docs = new DocumentTable();
  private orders = new SortOrders(this.docs);
  private runner: QueryRunner;
  private facetCounter: FacetCounter;
  private indexer = new DocumentIndexer(this.terms);

  constructor(private readonly options: SearchIndexOptions = {}) {
    this.runner = this.newRunner();
    this.facetCounter = this.newFacetCounter();
  }

  /** A new index holding `docs`, built in slices of `sliceMs` with the event loop free between them. */
  static async buildInSlices(
    docs: Iterable<SearchDocument> | AsyncIterable<SearchDocument>,
    options: SlicedBuildOptions = {},
  ): Promise<CatalogueSearchIndex> {
    const sliceMs = options.sliceMs ?? 10;
    const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    const now = options.now ?? (() => performance.now());
    const index = new CatalogueSearchIndex(options);
    let sliceStart = now();
    const breathe = async (): Promise<void> => {
      if (now() - sliceStart < sliceMs) return;
      await pause();
      sliceStart = now();
    };
    index.beginBulk();
    let added = 0;
    if (Symbol.asyncIterator in docs) {
      for await (const doc of docs) {
        index.addBulk(doc);
        if ((++added & 63) === 0) await breathe();
      }
    } else {
      for (const doc of docs) {
        index.addBulk(doc);
        if ((++added & 63) === 0) await breathe();
      }
    }
    const steps = index.finishBulk();
    while (!steps.next().done) await breathe();
    return index;
  }

  /** Live documents. */
  get size(): number {
    return this.docs.live;
  }

  has(pluginId: string): boolean {
    return this.docs.idOf(pluginId) !== undefined;
  }

  /** Replaces the whole content with `docs` (synchronously: ~0.5 s for 100k plugins; see buildInSlices). */
  build(docs: Iterable<SearchDocument>): void {
    this.beginBulk();
    for (const doc of docs) this.addBulk(doc);
    runSteps(this.finishBulk());
  }

  /** Adds a plugin or replaces what the index holds of it. */
  upsert(doc: SearchDocument): void {
    const existing = this.docs.idOf(doc.id);
    if (existing === undefined) {
      this.orders.insert(this.index(doc));
      return;
    }
    // The document keeps its internal id (the one just freed is the next handed out), so only
    // the orders whose keys changed move it.
    const moved = this.orders.changedOrders(existing, doc);
    this.orders.remove(existing, moved);
    this.reindex(existing, doc);
    this.orders.insert(existing, moved);
  }

  /** Forgets a plugin; false when it was not there. */
  remove(pluginId: string): boolean {
    const id = this.docs.idOf(pluginId);
    if (id === undefined) return false;
    this.orders.remove(id);
    this.unindex(id);
    return true;
  }

  query(query: CatalogueIndexQuery): CatalogueIndexPage {
    return this.runner.run(query);
  }

  /**
   * How many documents each value of kind, category, tags and the requested extension keys would
   * give if clicked: over the search and every other filter (see FacetCounter).
   */
  facets(query: CatalogueIndexQuery, request: FacetRequest): FacetCounts {
    return this.facetCounter.count(query, request);
  }

  /** The index's memory, approximately (typed arrays exactly, strings and maps by V8's usual sizes), for a metric. */
  approximateBytes(): number {
    return (
      this.terms.approximateBytes() +
      this.docs.approximateBytes() +
      this.orders.approximateBytes() +
      this.runner.approximateBytes() +
      this.facetCounter.approximateBytes()
    );
  }

  private beginBulk(): void {
    this.terms = new TermTable();
    this.docs = new DocumentTable();
    this.orders = new SortOrders(this.docs);
    this.runner = this.newRunner();
    this.facetCounter = this.newFacetCounter();
    this.indexer = new DocumentIndexer(this.terms);
    this.terms.beginBulk();
  }

  private newRunner(): QueryRunner {
    return new QueryRunner(this.terms, this.docs, this.orders, this.options.broadShare ?? 1 / 8);
  }

  private newFacetCounter(): FacetCounter {
    return new FacetCounter(this.terms, this.docs, this.runner, this.options.facetPath ?? 'auto');
  }

  /** During a bulk build: kept orders wait for finishBulk. */
  private addBulk(doc: SearchDocument): void {
    const existing = this.docs.idOf(doc.id);
    if (existing !== undefined) this.unindex(existing);
    this.index(doc);
  }

  private *finishBulk(): Generator<void, void, void> {
    yield* this.terms.finishBulk();
    this.docs.trim();
    yield* this.orders.rebuild();
  }

  /** Records the document's keys and adds its postings; returns its internal id. */
  private index(doc: SearchDocument): number {
    this.indexer.read(doc);
    const { entries, count, nameWords } = this.indexer;
    const id = this.docs.add(doc, nameWords, entries, count);
    this.terms.bitsetWords = bitWords(this.docs.capacity);
    for (let i = 0; i < count; i++) {
      const field = entries[i] & 3;
      this.terms.addPosting(entries[i] >>> 2, id * 4 + (field === FIELD_FILTER ? 0 : field), field < FIELD_README);
    }
    return id;
  }

  /**
   * Replaces a document's terms, touching only the postings that changed: a new release that
   * keeps the words (the usual publish) moves no posting at all, instead of a memmove in every
   * common word's list.
   */
  private reindex(id: number, doc: SearchDocument): void {
    const { terms, indexer } = this;
    indexer.read(doc);
    const { entries, count, nameWords, sequence } = indexer;
    for (const entry of this.docs.entries(id)) {
      const termId = entry >>> 2;
      const field = entry & 3;
      if (terms.seenBy[termId] === sequence && terms.seenField[termId] === field) terms.keptBy[termId] = sequence;
      else terms.removePosting(termId, id, field === FIELD_FILTER ? 0 : field, field < FIELD_README);
    }
    this.docs.remove(id);
    if (this.docs.add(doc, nameWords, entries, count) !== id) throw new Error('search index: a reindexed document changed its internal id');
    for (let i = 0; i < count; i++) {
      const termId = entries[i] >>> 2;
      if (terms.keptBy[termId] === sequence) continue;
      const field = entries[i] & 3;
      terms.addPosting(termId, id * 4 + (field === FIELD_FILTER ? 0 : field), field < FIELD_README);
    }
  }

  private unindex(id: number): void {
    for (const entry of this.docs.entries(id)) {
      const field = entry & 3;
      this.terms.removePosting(entry >>> 2, id, field === FIELD_FILTER ? 0 : field, field < FIELD_README);
    }
    this.docs.remove(id);
  }
}
