import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../platform/auth/auth-context';
import { notFound } from '../../common/errors/domain-error';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { DEFAULT_README_LOCALE, resolveStoredReadmeLocale } from '../../lib/locale/locale';
import { toCatalogueItemDto } from './catalogue.mapper';
import type { PluginDetailDto } from './dto/plugin-detail.dto';
import type { ReleaseEntity } from './entities/release.entity';
import { type ReadmeView, toPluginDetailDto, toPluginImagesDto, toReleaseSummaryDto } from './plugin-detail.mapper';
import { LATEST_SQL, PAGE_SQL, pageRowOf, PluginPageRepository, type PluginPageRow, releaseOfTuple } from './plugin-page.repository';
import { pluginOfRow, pluginRowOfJson } from './plugin-row';
import { publishedByOf } from './release.mapper';
import { imageUrl } from './served-images';
import { ReleaseReadmesRepository } from './release-readmes.repository';

/**
 * Whether plugin pages are stored (PostgreSQL) or always read whole (the embedded default): there
 * the engine is one WebAssembly thread, a page read whole answers at 0.55-0.85 of the
 * one-row ceiling (target 0.5), and building every page at once (the first start after a bulk write) left some 70 MiB
 * of optimised WebAssembly resident, past the embedded footprint's 400 MiB.
 */
export const STORED_PAGES = Symbol('STORED_PAGES');

/**
 * `GET /api/plugins/:slug`: the full plugin. Its manifest fields and README are those of the
 * release the catalogue shows (ReleasesRepository.findShown: the latest; a newer prerelease or a
 * backport does not change it), the README in the language asked for.
 *
 * Anonymous callers who ask for no language get the stored page (plugin_page, kept by
 * PluginPageBuilder) while it is current: one indexed row instead of the page's six reads and the
 * mapping, for the request the catalogue serves most.
 */
@Injectable()
export class PluginDetailService {
  constructor(
    private readonly pages: PluginPageRepository,
    private readonly readmes: ReleaseReadmesRepository,
    private readonly reads: CatalogueReads,
    @Inject(STORED_PAGES) private readonly storesPages: boolean,
  ) {}

  /** A signed-in caller (an owner or admin after a change) reads the primary; anyone else may read a replica. */
  detail(slug: string, locale: string | undefined, caller: AuthContext | null): Promise<PluginDetailDto> {
    return caller ? this.read(slug, locale, caller, undefined) : this.reads.run((manager) => this.read(slug, locale, caller, manager));
  }

  /** An anonymous caller's answer as JSON text: the same as `detail`, from the stored page when it is current. */
  detailJson(slug: string, locale: string | undefined): Promise<string> {
    return this.reads.run(async (manager) => {
      const stored = this.storesPages && locale === undefined ? await this.pages.storedPage(slug, PAGE_FORMAT, manager) : null;
      return stored ?? JSON.stringify(await this.read(slug, locale, null, manager));
    });
  }

  /** The stored page of a plugin: what an anonymous caller asking for no language is answered. */
  async storedPageOf(page: PluginPageRow, manager: EntityManager): Promise<string> {
    return JSON.stringify(await this.answer(page, undefined, null, manager));
  }

  private async read(
    slug: string,
    locale: string | undefined,
    caller: AuthContext | null,
    manager: EntityManager | undefined,
  ): Promise<PluginDetailDto> {
    // One round trip: the plugin, its releases, owners, the shown release and its READMEs' locales.
    const page = await this.pages.page(slug, manager);
    if (!page) throw notFound(`no plugin "${slug}"`);
    return this.answer(page, locale, caller, manager);
  }

  private async answer(
    page: PluginPageRow,
    locale: string | undefined,
    caller: AuthContext | null,
    manager: EntityManager | undefined,
  ): Promise<PluginDetailDto> {
    const shown = page.shownId
      ? ({ id: page.shownId, manifest: page.shownManifest, images: page.shownImages } as ReleaseEntity)
      : undefined;
    return toPluginDetailDto(page.plugin, {
      owners: page.owners,
      releases: page.releases,
      shown,
      readme: shown
        ? await this.readme(shown.id, locale, page.readmeLocales, page.firstReadmeHtml, manager)
        : { html: null, locale: null, available: [] },
      admin: caller?.user.role === 'admin',
    });
  }

  /** A single README has no language (`readmeLocale` null, no alternatives); `readmes` have theirs. */
  private async readme(
    releaseId: string,
    locale: string | undefined,
    stored: string[],
    firstHtml: string | null,
    manager: EntityManager | undefined,
  ): Promise<ReadmeView> {
    const available = stored.filter((l) => l !== DEFAULT_README_LOCALE);
    const chosen = resolveStoredReadmeLocale(locale, stored);
    if (chosen === null) return { html: null, locale: null, available };
    // The first stored README came with the page; another language is one more read.
    const html = chosen === stored[0] ? firstHtml : ((await this.readmes.findExact(releaseId, chosen, manager))?.html ?? null);
    if (html === null) return { html: null, locale: null, available };
    return { html, locale: chosen === DEFAULT_README_LOCALE ? null : chosen, available };
  }
}

/**
 * Which code builds a stored page: the page read and everything that makes the answer of it. A
 * deploy that changes any of them changes this, and every page stored by other code is rebuilt
 * (and not answered meanwhile).
 */
export const PAGE_FORMAT = createHash('sha256')
  .update(
    [
      PAGE_SQL,
      LATEST_SQL,
      pageRowOf,
      releaseOfTuple,
      PluginDetailService.prototype['answer'],
      PluginDetailService.prototype['readme'],
      toPluginDetailDto,
      toCatalogueItemDto,
      toReleaseSummaryDto,
      toPluginImagesDto,
      imageUrl,
      publishedByOf,
      pluginOfRow,
      pluginRowOfJson,
      resolveStoredReadmeLocale,
    ]
      .map(String)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 32);
