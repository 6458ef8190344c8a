import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { invalid } from '../../common/errors/domain-error';
import { ReadmeRenderError, ReadmeRenderPool } from '../../platform/markdown';

/**
 * Page markdown to sanitized HTML with the README renderer, on a worker thread like README ingest:
 * even 100 000 characters of pathological markdown never stall the event loop. A page has no
 * repository, so relative links and images are dropped (the renderer's `none` context).
 */
@Injectable()
export class PageRenderer implements OnModuleDestroy {
  private readonly pool = new ReadmeRenderPool({ size: 1 });

  async render(markdown: string): Promise<string> {
    try {
      return (await this.pool.render({ markdown, context: { kind: 'none' } })).html;
    } catch (error) {
      if (!(error instanceof ReadmeRenderError)) throw error;
      throw invalid('page-render-failed', 'the page markdown could not be rendered', [
        { path: '/markdown', message: `markdown: ${error.message}` },
      ]);
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
