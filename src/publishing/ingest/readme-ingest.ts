import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { imageProxyKey } from '../../platform/markdown/proxy-signature';
import type { ForgeInstanceConfig } from '../../config/config.types';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { forgeForUrl, rawFileUrl } from '../../platform/forges/urls';
import type { Manifest } from '../../lib/manifest';
import { AssetFetchError, fetchText } from '../../common/fetch';
import { mapBounded } from '../../common/map-bounded';
import { ASSET_CONCURRENCY, FetchPolicy, MAX_TEXT_BYTES } from '../../platform/fetch-policy/fetch-policy';
import type { ReadmeRendering } from '../../catalogue/plugins/release-readmes.repository';
import { README_MAX_LENGTH, README_RENDER_VERSION, type ReadmeContextSpec, ReadmeRenderPool } from '../../platform/markdown';

const DEFAULT_README = 'README.md';
/** The rendered README HTML one release may store, all locales together (UTF-8 bytes). */
export const MAX_README_HTML_BYTES = 2 * 1024 * 1024;

export interface RenderedReadmes {
  /** Sanitized HTML and its source by locale (`default` for a single-locale README), in the manifest's order. */
  readmes: Record<string, ReadmeRendering>;
  /** Every locale the manifest names a README for, rendered or not, in the manifest's order. */
  locales: string[];
  warnings: string[];
}

type Located = { forge: ForgeInstanceConfig; repoPath: string } | null;

/** One README's fate: its rendering, or why there is none; `warnings` may accompany either. */
interface Outcome {
  locale: string;
  readme: ReadmeRendering | null;
  warnings: string[];
}

/** A README rendered now, with what it was rendered from. */
interface Rendered {
  readme: ReadmeRendering;
  truncated: boolean;
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

/**
 * The git refs to read a repository README at, in order: the version as pushed, then with and
 * without a leading `v`. A push of `1.2.0` for the tag `v1.2.0` (and the reverse) still finds it.
 */
export function readmeTagCandidates(version: string): string[] {
  const bare = version.replace(/^[vV]/, '');
  return [...new Set([version, `v${bare}`, bare])];
}

/**
 * Renders the README(s) a manifest points at: repo-relative paths are read from the forge at the
 * release tag, URLs are fetched through the ingest fetch policy. Bounds: the manifest names at
 * most 16 locales (validated), read ASSET_CONCURRENCY at a time, each at most MAX_TEXT_BYTES of
 * markdown, MAX_README_HTML_BYTES of HTML for the whole release. Rendering runs on worker
 * threads. A README that cannot be read or kept does not fail the release; it is left out and
 * named in `warnings`, never dropped silently.
 */
@Injectable()
export class ReadmeIngest implements OnModuleDestroy {
  private readonly logger = new Logger('ReadmeIngest');
  private readonly pool: ReadmeRenderPool;

  constructor(
    private readonly forges: ForgeRegistry,
    private readonly policy: FetchPolicy,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Images in READMEs are shown through the signed proxy (src/catalogue/images): the render threads sign them.
    this.pool = new ReadmeRenderPool({ imageProxyKey: imageProxyKey(config.keyEncryptionKey) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }

  /** `{default: html}` for a single README, or one entry per locale of `readmes`; `abandon` cancels the reads under way. */
  async render(manifest: Manifest, repoUrl: string, tag: string, abandon?: AbortSignal): Promise<RenderedReadmes> {
    const located = forgeForUrl(repoUrl, this.forges.all());
    const sources: [string, string][] = manifest.readmes
      ? Object.entries(manifest.readmes)
      : [['default', manifest.readme ?? DEFAULT_README]];
    if (manifest.readmes && manifest.readme) sources.push(['default', manifest.readme]);
    const outcomes = await mapBounded(sources, ASSET_CONCURRENCY, ([locale, source]) =>
      this.renderOne(locale, source, located, tag, abandon),
    );

    const readmes: Record<string, ReadmeRendering> = {};
    const warnings = outcomes.flatMap((outcome) => outcome.warnings);
    const leftOut: string[] = [];
    let total = 0;
    for (const { locale, readme } of outcomes) {
      if (readme === null) continue;
      const bytes = Buffer.byteLength(readme.html, 'utf8');
      if (total + bytes > MAX_README_HTML_BYTES) {
        leftOut.push(locale);
        continue;
      }
      total += bytes;
      readmes[locale] = readme;
    }
    if (leftOut.length > 0) {
      warnings.push(
        `README locales left out: ${leftOut.join(', ')} (a release's rendered READMEs may total at most ${mebibytes(MAX_README_HTML_BYTES)} of HTML)`,
      );
    }
    for (const warning of warnings) this.logger.warn(`${repoUrl}@${tag}: ${warning}`);
    return { readmes, locales: sources.map(([locale]) => locale), warnings };
  }

  /**
   * A stored README rendered by the current renderer: its markdown again in the same link
   * context, or, stored before the markdown was kept, its HTML through the current sanitizer.
   * On the render threads, like every render.
   */
  async rerender(stored: Pick<ReadmeRendering, 'html' | 'markdown' | 'context'>): Promise<string> {
    if (stored.markdown === null || stored.context === null) return (await this.pool.render({ sanitize: stored.html })).html;
    return (await this.pool.render({ markdown: stored.markdown, context: stored.context as ReadmeContextSpec })).html;
  }

  private async renderOne(
    locale: string,
    source: string,
    located: Located,
    tag: string,
    abandon: AbortSignal | undefined,
  ): Promise<Outcome> {
    const name = `README ${source}${locale === 'default' ? '' : ` (${locale})`}`;
    try {
      const rendered = await this.fetchAndRender(source, located, tag, abandon);
      const warnings = rendered.truncated ? [`${name} is longer than ${README_MAX_LENGTH} characters; only its start is shown`] : [];
      return { locale, readme: rendered.readme, warnings };
    } catch (error) {
      if (error instanceof AssetFetchError && error.reason === 'too-large') {
        return { locale, readme: null, warnings: [`${name} is larger than ${mebibytes(MAX_TEXT_BYTES)} and was not rendered`] };
      }
      return { locale, readme: null, warnings: [`${name} was not rendered: ${(error as Error).message}`] };
    }
  }

  private async fetchAndRender(source: string, located: Located, tag: string, abandon: AbortSignal | undefined): Promise<Rendered> {
    if (isUrl(source)) return this.renderKept(await this.fetchMarkdown(source, abandon), { kind: 'url', url: source });
    if (!located) throw new Error('the repository is not on a configured forge');
    const readmePath = source.replace(/^\.?\//, '');
    const { forge, repoPath } = located;
    const { markdown, foundAt } = await this.fetchAtTag(located, readmePath, tag, abandon);
    const context: ReadmeContextSpec = {
      kind: 'forge',
      forge: { type: forge.type, webUrl: forge.webUrl, apiUrl: forge.apiUrl },
      repoPath,
      tag: foundAt,
      readmePath,
    };
    return this.renderKept(markdown, context);
  }

  /** Renders, keeping the markdown and its context beside the HTML so a later renderer can redo it. */
  private async renderKept(markdown: string, context: ReadmeContextSpec): Promise<Rendered> {
    const rendered = await this.pool.render({ markdown, context });
    return { readme: { html: rendered.html, markdown, context, renderVersion: README_RENDER_VERSION }, truncated: rendered.truncated };
  }

  /** Reads the file at the first candidate tag that has it; only "not found" moves on to the next. */
  private async fetchAtTag(
    located: NonNullable<Located>,
    readmePath: string,
    tag: string,
    abandon: AbortSignal | undefined,
  ): Promise<{ markdown: string; foundAt: string }> {
    const candidates = readmeTagCandidates(tag);
    for (const candidate of candidates) {
      try {
        const markdown = await this.fetchMarkdown(rawFileUrl(located.forge, located.repoPath, candidate, readmePath), abandon);
        return { markdown, foundAt: candidate };
      } catch (error) {
        if (!(error instanceof AssetFetchError && error.reason === 'status' && error.status === 404)) throw error;
      }
    }
    throw new Error(`not found at ${candidates.length === 1 ? 'the tag' : 'any of the tags'} ${candidates.join(', ')}`);
  }

  private async fetchMarkdown(url: string, abandon: AbortSignal | undefined): Promise<string> {
    return (await fetchText(url, { ...this.policy.text(), signal: abandon })).text;
  }
}
