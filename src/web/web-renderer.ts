import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from './html';
import { renderPage, type PageSpec } from './layout';
import { WebAssets } from './web-assets';
import { WebContextFactory, type WebContext } from './web-context';

/** What a page builder may answer instead of a page. */
export type PageOutcome = PageSpec | { redirect: string } | { status: 401 | 403 | 404 | 503 };

/** A finished answer: an HTML document with its status, or a redirect. */
export interface RenderedPage {
  status: number;
  body: string;
  redirect?: string;
}

const PROBLEM_TEXT: Record<401 | 403 | 404 | 503, [string, string]> = {
  401: ['nav.signIn', 'error.signInNeeded'],
  403: ['error.title', 'error.forbidden'],
  404: ['error.notFound', 'error.notFoundText'],
  503: ['error.title', 'error.unavailable'],
};

/** Builds a page's context (visitor, site, language), runs its builder and frames the result. */
@Injectable()
export class WebRenderer {
  constructor(
    private readonly contexts: WebContextFactory,
    private readonly assets: WebAssets,
  ) {}

  async render(request: Request, response: Response, build: (ctx: WebContext) => Promise<PageOutcome>): Promise<RenderedPage> {
    const ctx = await this.contexts.build(request, response);
    const outcome = await build(ctx);
    if ('redirect' in outcome) return { status: 303, body: '', redirect: outcome.redirect };
    if ('status' in outcome) {
      const [title, text] = PROBLEM_TEXT[outcome.status];
      const signIn = outcome.status === 401 ? html`<p><a class="button" href="/sign-in">${ctx.t('nav.signIn')}</a></p>` : null;
      const main = html`<section class="problem"><h1>${ctx.t(title)}</h1><p>${ctx.t(text)}</p>${signIn}</section>`;
      return { status: outcome.status, body: renderPage(ctx, this.assets, { title: ctx.t(title), main }) };
    }
    return { status: outcome.httpStatus ?? 200, body: renderPage(ctx, this.assets, outcome) };
  }
}
