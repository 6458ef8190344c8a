import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { BackgroundLoop, loopFailureLog } from '../../common/background-loop';
import { type ReadmeKey, ReleaseReadmesRepository } from '../../catalogue/plugins/release-readmes.repository';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { README_RENDER_VERSION } from '../../platform/markdown';
import { ReadmeIngest } from './readme-ingest';

/** READMEs whose keys one query reads; each README is then read, rendered and written on its own. */
const BATCH_SIZE = 50;
/**
 * A pass runs at start and then this often: READMEs written meanwhile by an instance still on an
 * older renderer (a rolling deploy) are caught without a restart. An idle pass is one indexed query.
 */
const INTERVAL_MS = 60 * 60_000;

export interface RerenderSummary {
  rerendered: number;
  failed: number;
}

/**
 * Re-renders, in the background, every stored README produced by an older renderer
 * (`render_version` below README_RENDER_VERSION): from its markdown in its link context, or, for
 * READMEs stored before the markdown was kept, by passing the HTML through the current sanitizer.
 * Never delays start-up, never blocks the event loop (rendering runs on the render threads, one
 * README at a time, and batches yield in between). Safe with several instances: a re-render is
 * written only over the very row it read and only while that row is still older
 * (ReleaseReadmesRepository.storeRerendered), so the first writer wins and nothing is written twice.
 * A README that fails to render keeps its HTML and is tried again at the next pass.
 */
@Injectable()
export class ReadmeRerenderer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ReadmeRerenderer');
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly readmes: ReleaseReadmesRepository,
    private readonly renderer: ReadmeIngest,
    private readonly responses: ResponseCache,
  ) {
    this.loop = new BackgroundLoop(() => this.runOnce(), INTERVAL_MS, loopFailureLog(this.logger, 're-rendering READMEs'));
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops after the README under way; resolves once nothing runs. */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over every README older than the current renderer. */
  async runOnce(): Promise<RerenderSummary> {
    const summary: RerenderSummary = { rerendered: 0, failed: 0 };
    let after: ReadmeKey | null = null;
    while (!this.loop.isStopping) {
      const keys = await this.readmes.findStaleKeys(README_RENDER_VERSION, after, BATCH_SIZE);
      if (keys.length === 0) break;
      for (const key of keys) {
        if (this.loop.isStopping) break;
        await this.rerenderOne(key, summary);
      }
      after = keys[keys.length - 1];
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (summary.rerendered > 0) await this.responses.invalidate();
    if (summary.rerendered || summary.failed) {
      this.logger.log(
        `re-rendered ${summary.rerendered} README(s) with renderer version ${README_RENDER_VERSION}${summary.failed ? `; ${summary.failed} failed and keep their HTML until the next pass` : ''}`,
      );
    }
    return summary;
  }

  private async rerenderOne(key: ReadmeKey, summary: RerenderSummary): Promise<void> {
    const stale = await this.readmes.findStale(key, README_RENDER_VERSION);
    if (!stale) return;
    let html: string;
    try {
      html = await this.renderer.rerender(stale);
    } catch (error) {
      summary.failed++;
      this.logger.warn(`README ${key.locale} of release ${key.releaseId} was not re-rendered: ${(error as Error).message}`);
      return;
    }
    // Marked (ResponseCache.writing): a hit never replays the old README once a miss, or a caller
    // with credentials, may have been answered the new one.
    if (await this.responses.writing(() => this.readmes.storeRerendered(stale, html, README_RENDER_VERSION))) summary.rerendered++;
  }
}
