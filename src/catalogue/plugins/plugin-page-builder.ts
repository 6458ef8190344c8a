import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BackgroundLoop } from '../../common/background-loop';
import { Metrics } from '../../platform/metrics/metrics';
import { PAGE_FORMAT, PluginDetailService, STORED_PAGES } from './plugin-detail.service';
import { PluginPageRepository } from './plugin-page.repository';

/** Pages built a transaction: one read of them all, and a few milliseconds of mapping before the event loop turns again. */
const BATCH = 100;
/** How soon after a write its page is stored again; until then the page is read as it is (never stale). */
const PASS_MS = 1_000;
/** Where no page is stored, the log only needs emptying now and then: its rows cost nothing but space. */
const CLEAR_MS = 60_000;
/** Log rows taken (absorbed by built pages, or cleared) before the log is compacted: a vacuum of the small log costs milliseconds. */
const COMPACT_AFTER_ROWS = 1_000;

/**
 * Keeps plugin_page current: builds the pages of the plugins the triggers logged (any write to a
 * plugin, its releases, READMEs or owners, on any instance or from the operator CLI) as the detail
 * answers them. Every instance runs one; one builds at a time (the others find the lock taken and
 * try again a pass later). A page is built a second after the write that changed it, so the
 * catalogue's reads, a thousand for every write, find it built.
 *
 * On the embedded default no page is stored (STORED_PAGES): it only clears the log, once a minute.
 */
@Injectable()
export class PluginPageBuilder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('PluginPages');
  private readonly loop: BackgroundLoop;
  private formatChecked = false;
  /**
   * Log rows taken since the log was last compacted. Where pages are stored, the first pass
   * compacts what an earlier process left (a bulk build leaves a row for every plugin); on the
   * embedded default the log is only cleared, a minute's writes at a time, and a vacuum at start
   * left the idle process larger (241-259 MiB with it, 234-248 without, three starts each).
   */
  private takenSinceCompact: number;

  constructor(
    private readonly pages: PluginPageRepository,
    private readonly details: PluginDetailService,
    private readonly metrics: Metrics,
    @Inject(STORED_PAGES) private readonly storesPages: boolean,
  ) {
    this.loop = new BackgroundLoop(
      () => this.buildMarked(),
      storesPages ? PASS_MS : CLEAR_MS,
      (error) => this.log.warn(`building plugin pages failed: ${error.message}`),
    );
    this.takenSinceCompact = storesPages ? COMPACT_AFTER_ROWS : 0;
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** Builds every page written since it was stored; how many plugins it took. */
  async buildMarked(): Promise<number> {
    if (!this.storesPages) {
      await this.compactAfter(await this.pages.clearLog());
      this.metrics.observePluginPagesStale(0);
      return 0;
    }
    if (!this.formatChecked) {
      await this.pages.markOtherFormats(PAGE_FORMAT);
      this.formatChecked = true;
    }
    this.metrics.observePluginPagesStale(await this.pages.pendingCount());
    let built = 0;
    let absorbed = 0;
    while (!this.loop.isStopping) {
      const taken = await this.pages.buildPending(BATCH, PAGE_FORMAT, (page, manager) => this.details.storedPageOf(page, manager));
      built += taken.plugins;
      absorbed += taken.absorbed;
      if (taken.plugins < BATCH) break;
      await nextTurn();
    }
    if (built) this.metrics.observePluginPagesStale(await this.pages.pendingCount());
    await this.compactAfter(absorbed);
    return built;
  }

  /** Compacts the log once COMPACT_AFTER_ROWS were taken from it. */
  private async compactAfter(taken: number): Promise<void> {
    this.takenSinceCompact += taken;
    if (this.takenSinceCompact < COMPACT_AFTER_ROWS) return;
    await this.pages.compactLog();
    this.takenSinceCompact = 0;
  }
}
