import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, actionForm, checkbox, dataTable, field, queryText, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

type AdminPage = components['schemas']['AdminPageDto'];

function pageInputs(t: Translate, page: AdminPage | null, defaultLocale: string): SafeHtml {
  return html`${
    page
      ? null
      : html`${field('cms-slug', t('admin.pages.slug'), html`<input id="cms-slug" name="slug" required pattern="[a-z0-9][a-z0-9\\-]*" autocomplete="off">`)}
${field('cms-locale', t('admin.pages.locale'), html`<input id="cms-locale" name="locale" required value="${defaultLocale}" autocomplete="off">`)}`
  }
${field('cms-title', t('admin.pages.title'), html`<input id="cms-title" name="title" required value="${page?.title ?? ''}">`)}
${field('cms-markdown', t('admin.pages.markdown'), html`<textarea id="cms-markdown" name="markdown" rows="14" aria-describedby="cms-markdown-hint">${page?.markdown ?? ''}</textarea>`, t('admin.pages.markdown.hint'))}
${checkbox('cms-published', 'published', t('admin.pages.published'), page?.published ?? false)}`;
}

/** `/admin/pages`: the CMS pages in every locale; `/admin/pages/:slug?locale=`: one page's editor. */
@Injectable()
export class AdminCmsPages {
  constructor(private readonly renderer: WebRenderer) {}

  list(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildList(ctx)));
  }

  edit(request: Request, response: Response, slug: string): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildEdit(ctx, slug)));
  }

  private async buildList(ctx: WebContext): Promise<PageOutcome> {
    const { t, api } = ctx;
    const [pagesResult, i18nResult] = await Promise.all([api.GET('/api/admin/pages'), api.GET('/api/i18n')]);
    const pages = need(pagesResult).pages;
    const rows = pages.map((p) => [
      html`<a href="/admin/pages/${p.slug}?locale=${p.locale}">${p.title}</a>`,
      html`<code>${p.slug}</code>`,
      p.locale,
      p.published ? html`<a href="/pages/${p.slug}?lang=${p.locale}">${t('admin.pages.isPublished')}</a>` : t('admin.pages.draft'),
      when(p.updatedAt),
      actionButton(
        'page.delete',
        t('action.delete'),
        { slug: p.slug, locale: p.locale },
        {
          style: 'danger',
          confirm: t('admin.pages.delete.confirm', { slug: p.slug, locale: p.locale }),
          ariaLabel: t('admin.pages.deleteNamed', { slug: p.slug, locale: p.locale }),
        },
      ),
    ]);
    const body = html`${dataTable(t('admin.section.pages'), [t('admin.pages.title'), t('admin.pages.slug'), t('admin.pages.locale'), t('admin.pages.state'), t('admin.pages.updated'), t('admin.actions')], rows, t('admin.pages.none'))}
<section aria-labelledby="admin-page-new"><h2 id="admin-page-new">${t('admin.pages.create')}</h2>
${actionForm('page.create', {}, pageInputs(t, null, need(i18nResult).defaultLocale), t('admin.pages.create'))}
</section>`;
    return adminPage(ctx, 'pages', t('admin.section.pages'), body);
  }

  private async buildEdit(ctx: WebContext, slug: string): Promise<PageOutcome> {
    const { t, api, request } = ctx;
    const locale = queryText(request, 'locale');
    const page = need(await api.GET('/api/admin/pages')).pages.find(
      (p) => p.slug === slug && (locale === undefined || p.locale === locale),
    );
    if (!page) return { status: 404 };
    const body = html`<p class="meta"><code>${page.slug}</code> · ${page.locale} · ${t('admin.pages.updated')} ${when(page.updatedAt)} · <a href="/admin/pages">${t('admin.pages.back')}</a></p>
${actionForm('page.update', { slug: page.slug, locale: page.locale }, pageInputs(t, page, page.locale), t('action.save'))}`;
    return adminPage(ctx, 'pages', page.title, body);
  }
}
