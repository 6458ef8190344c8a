import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { focusableScrollers } from '../../components/scroll-region';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { shiftHeadings } from './plugin-sections';
import { apiLocale, failed, formatDate, missing, CATALOGUE_SCRIPTS, SUGGEST_CLIENT_STRINGS } from './catalogue-parts';

/** `/pages/:slug`: an admin-written page in the visitor's language (or the nearest one). */
@Injectable()
export class CmsPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response, slug: string): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx, slug));
  }

  private async build(ctx: WebContext, slug: string): Promise<PageOutcome> {
    const locale = apiLocale(ctx.locale);
    const page = await ctx.api.GET('/api/pages/{slug}', { params: { path: { slug }, query: locale ? { locale } : {} } });
    if (!page.data) return missing(page.response.status) ? { status: 404 } : failed(page.response);
    // The page's html was rendered from markdown and sanitized by the API.
    const main = html`<article class="cms-page" lang="${page.data.locale}">
<h1>${page.data.title}</h1>
<div class="cms-body">${focusableScrollers(shiftHeadings(page.data.html, 1), ctx.t)}</div>
<p class="meta">${ctx.t('cms.updated', { date: formatDate(page.data.updatedAt, ctx.locale) })}</p>
</article>`;
    return { title: page.data.title, main, scripts: CATALOGUE_SCRIPTS, clientStrings: SUGGEST_CLIENT_STRINGS };
  }
}
