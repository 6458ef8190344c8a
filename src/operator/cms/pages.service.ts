import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuditActor } from '../../platform/audit/audit.service';
import { conflict, notFound } from '../../common/errors/domain-error';
import { resolveLocaleWithDefault } from '../../lib/locale/locale';
import type { AdminPageDto, AdminPageListDto, CreatePageDto, PageDto, UpdatePageDto } from './dto/page.dto';
import type { PageEntity } from './entities/page.entity';
import { I18nService } from '../../platform/site/i18n.service';
import { PageRenderer } from './page-renderer';
import { toAdminPageDto, toPageDto } from './pages.mapper';
import { type PageContent, PagesRepository } from './pages.repository';

/** What the audit keeps of a page: the markdown by its hash, so an entry stays small. */
function audited(page: PageEntity) {
  return { title: page.title, published: page.published, markdownSha256: createHash('sha256').update(page.markdown).digest('hex') };
}

/** Translations in the site's language order, then the others alphabetically: "first available" is the first of these. */
function inSiteOrder(pages: PageEntity[], siteLocales: readonly string[]): PageEntity[] {
  const rank = (locale: string) => {
    const index = siteLocales.indexOf(locale);
    return index === -1 ? siteLocales.length : index;
  };
  return [...pages].sort((a, b) => rank(a.locale) - rank(b.locale) || a.locale.localeCompare(b.locale));
}

@Injectable()
export class PagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly i18n: I18nService,
    private readonly renderer: PageRenderer,
    private readonly audit: AuditService,
  ) {}

  /** The published page in the best locale for the request: exact, base language, default locale, first available. */
  async read(slug: string, requestedLocale: string | undefined): Promise<PageDto> {
    const [translations, languages] = await Promise.all([this.pages.published(slug), this.i18n.get()]);
    const ordered = inSiteOrder(translations, languages.locales);
    const locale = resolveLocaleWithDefault(
      requestedLocale,
      ordered.map((p) => p.locale),
      languages.defaultLocale,
    );
    const page = ordered.find((p) => p.locale === locale);
    if (!page) throw notFound(`no page "${slug}"`);
    return toPageDto(page);
  }

  async list(): Promise<AdminPageListDto> {
    return { pages: (await this.pages.all()).map(toAdminPageDto) };
  }

  async create(input: CreatePageDto, actor: AuditActor): Promise<AdminPageDto> {
    const content = await this.rendered(input);
    return this.pages.transaction(async (manager) => {
      const page = await this.pages.insert({ slug: input.slug, locale: input.locale, ...content }, manager);
      if (!page) throw conflict('page-exists', `the page "${input.slug}" exists already in ${input.locale}; change it with PUT`);
      await this.audit.record(
        { action: 'page.create', actor, details: { slug: page.slug, locale: page.locale, after: audited(page) } },
        manager,
      );
      return toAdminPageDto(page);
    });
  }

  async update(slug: string, locale: string, input: UpdatePageDto, actor: AuditActor): Promise<AdminPageDto> {
    const content = await this.rendered(input);
    return this.pages.transaction(async (manager) => {
      const current = await this.pages.findForUpdate(slug, locale, manager);
      if (!current) throw notFound(`no page "${slug}" in ${locale}`);
      const page = await this.pages.update(current.id, content, manager);
      await this.audit.record(
        { action: 'page.update', actor, details: { slug, locale, before: audited(current), after: audited(page) } },
        manager,
      );
      return toAdminPageDto(page);
    });
  }

  /** Rendered before the transaction opens, so no connection waits on the renderer. */
  private async rendered(input: UpdatePageDto): Promise<PageContent> {
    return { title: input.title, markdown: input.markdown, html: await this.renderer.render(input.markdown), published: input.published };
  }

  async delete(slug: string, locale: string, actor: AuditActor): Promise<void> {
    await this.pages.transaction(async (manager) => {
      const current = await this.pages.findForUpdate(slug, locale, manager);
      if (!current) throw notFound(`no page "${slug}" in ${locale}`);
      await this.pages.delete(current.id, manager);
      await this.audit.record({ action: 'page.delete', actor, details: { slug, locale, before: audited(current) } }, manager);
    });
  }
}
