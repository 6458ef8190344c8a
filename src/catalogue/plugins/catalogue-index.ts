import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BackgroundLoop } from '../../common/background-loop';
import { Clock } from '../../common/clock';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { Metrics } from '../../platform/metrics/metrics';
import { ChangeCursor } from './catalogue-change-cursor';
import { CatalogueIndexRepository, type ChangeFeed } from './catalogue-index.repository';
import { CatalogueItems } from './catalogue-items';
import { CatalogueSearchIndex } from './search-index';
import type { CatalogueIndexPage, CatalogueIndexQuery, FacetCounts, FacetRequest, SearchDocument } from './search-index';

/** Plugins read a batch while the index is built: small enough to stay off the event loop. */
const BUILD_BATCH = 2_000;
/** How often an idle instance reads the change log, so a long quiet spell never leaves it far behind. */
const CATCH_UP_MS = 2_000;
/** Change-log rows live this long; an instance that could not read the log for half of it rebuilds. */
const CHANGE_LOG_KEEP_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The catalogue (search, filters, sorts, exact totals) in this instance's memory, built from the
 * database at start and kept current from the change log (`catalogue_change`, written by a
 * trigger in every transaction that changes a plugin's catalogue columns, on any instance).
 *
 * Freshness without a round trip of its own: every page is read together with the change log of
 * the same snapshot (`absorb`). When the log holds nothing the index has not applied, the page the
 * index chose is that snapshot's page; otherwise the index applies what it missed and the page is
 * chosen again. So a write committed before a read began is in that read, on every instance.
 */
@Injectable()
export class CatalogueIndex implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('CatalogueIndex');
  private index: CatalogueSearchIndex | null = null;
  private items = new CatalogueItems();
  private readonly cursor = new ChangeCursor();
  private caughtUpAt = 0;
  /** How many feeds with something new the index has applied (a page's `version`). */
  private applied = 0;
  private lastPruneAt = 0;
  private building: Promise<void> | null = null;
  /** Searches waiting for an index to be built (`whenBuilt`). */
  private readonly waiting = new Set<() => void>();
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly repository: CatalogueIndexRepository,
    private readonly reads: CatalogueReads,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {
    this.loop = new BackgroundLoop(
      () => this.catchUp(),
      CATCH_UP_MS,
      (error) => this.log.warn(`reading the catalogue change log failed: ${error.message}`),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    await this.building;
    for (const done of [...this.waiting]) done();
  }

  /** Whether the index is built (a page can be chosen from it now). */
  get built(): boolean {
    return this.index !== null;
  }

  /**
   * Resolves true once the index is built (at once when it is), or false when `waitMs` passes
   * first. A search that waits here rather than asking SQL leaves the database to the build: a
   * restarted instance under a crowd of searches otherwise spent its pool on them (seconds each),
   * and the build, which needs the same pool, did not finish in 40 s.
   */
  whenBuilt(waitMs: number): Promise<boolean> {
    if (this.index) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve(this.index !== null);
      };
      const timer = setTimeout(done, waitMs);
      this.waiting.add(done);
    });
  }

  /**
   * The page's ids and exact total, or null while the index is being built (the caller asks SQL).
   * `version` says what the index had applied when it chose: see `absorb`. With `facets`, the
   * facet counts of the same state.
   */
  query(query: CatalogueIndexQuery, facets?: FacetRequest): (CatalogueIndexPage & { version: number; facets?: FacetCounts }) | null {
    const index = this.index;
    if (!index) return null;
    const page = index.query(query);
    return { ...page, version: this.applied, ...(facets ? { facets: index.facets(query, facets) } : {}) };
  }

  /**
   * A page's items (as JSON text) with the change log of the same snapshot (for `absorb`). The
   * items come from memory, and the page reads only the change log, unless `fromMemory` is false
   * or an item is not held; then the rows are read whole and held for the next page.
   */
  async readPage(ids: readonly string[], manager: EntityManager, fromMemory: boolean): Promise<ChangeFeed & { items: string[] }> {
    const held = fromMemory ? this.items.texts(ids) : null;
    // Held items are current as of any snapshot whose log brings nothing new (`absorb`).
    if (held) return { ...(await this.repository.changes(this.cursor.since, manager)), items: held };
    const items = this.items;
    const epoch = items.epoch;
    const read = await this.repository.page(ids, this.cursor.since, manager);
    items.keep(read.items, epoch);
    return {
      changes: read.changes,
      xmin: read.xmin,
      settingsVersion: read.settingsVersion,
      items: read.items.map((item) => JSON.stringify(item)),
    };
  }

  /** Where the next change-log read starts. */
  get since(): number {
    return this.cursor.since;
  }

  /**
   * Applies what a snapshot's change log holds that the index has not applied. True when a page
   * the index chose at `chosenAt` (its `version`, taken before the snapshot) is that snapshot's
   * page: the feed held nothing new, and nothing was applied since the page was chosen. A change
   * another read or the background pass applied in between is in the snapshot but was not in the
   * choice: that page is stale, though this feed brings nothing new.
   */
  absorb(feed: ChangeFeed, chosenAt?: number): boolean {
    const index = this.index;
    if (!index) return false;
    const unseen = this.cursor.take(feed);
    for (const change of unseen) {
      this.items.forget(change.pluginId);
      if (change.doc) index.upsert(change.doc);
      else index.remove(change.pluginId);
    }
    if (unseen.length) {
      this.applied++;
      this.report(index);
    }
    return unseen.length === 0 && (chosenAt === undefined || chosenAt === this.applied);
  }

  /** The background pass: build when there is no index (or it fell too far behind), else read the log. */
  private async catchUp(): Promise<void> {
    const now = this.clock.nowMs();
    if (this.index && now - this.caughtUpAt > CHANGE_LOG_KEEP_MS / 2) {
      this.log.warn('the change log was out of reach for too long; rebuilding the catalogue index');
      this.index = null;
    }
    if (!this.index) {
      this.building = this.build();
      await this.building;
      this.building = null;
    } else {
      this.absorb(await this.reads.run((manager) => this.repository.changes(this.cursor.since, manager)));
    }
    this.caughtUpAt = now;
    if (now - this.lastPruneAt >= PRUNE_EVERY_MS) {
      this.lastPruneAt = now;
      await this.repository.prune(CHANGE_LOG_KEEP_MS);
    }
  }

  private async build(): Promise<void> {
    const started = this.clock.nowMs();
    // Taken before the first batch: whatever commits after it is replayed from the change log.
    const { xmin } = await this.reads.run((manager) => this.repository.changes(Number.MAX_SAFE_INTEGER, manager));
    const items = new CatalogueItems();
    const built = await CatalogueSearchIndex.buildInSlices(this.documents(items));
    this.cursor.reset(xmin);
    // Whatever changed since xmin is forgotten again by the replay below.
    this.items = items;
    this.index = built;
    this.absorb(await this.reads.run((manager) => this.repository.changes(this.cursor.since, manager)));
    for (const done of [...this.waiting]) done();
    this.report(built);
    this.log.log(
      `catalogue index built: ${built.size} plugins in ${this.clock.nowMs() - started} ms, ~${Math.round(built.approximateBytes() / 1024)} KiB; list items ~${Math.round(items.approximateBytes() / 1024)} KiB`,
    );
  }

  private async *documents(items: CatalogueItems): AsyncGenerator<SearchDocument> {
    let after: string | null = null;
    for (;;) {
      const batch = await this.reads.run((manager) => this.repository.documents(after, BUILD_BATCH, manager));
      items.keep(
        batch.map((row) => row.item),
        items.epoch,
      );
      for (const row of batch) yield row.doc;
      if (batch.length < BUILD_BATCH || this.loop.isStopping) return;
      after = batch[batch.length - 1].doc.id;
    }
  }

  private report(index: CatalogueSearchIndex): void {
    this.metrics.observeSearchIndex(index.approximateBytes() + this.items.approximateBytes(), index.size);
  }
}
