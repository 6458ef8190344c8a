import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { feedAnchor, kindFeed } from '../../components/feed-links';
import { kindLabels, pluginList } from '../../components/plugin-card';
import { scrollRegion } from '../../components/scroll-region';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { failed, pageNumber, pagination, pageUrl, CATALOGUE_SCRIPTS, SUGGEST_CLIENT_STRINGS } from './catalogue-parts';

/** `/kinds/:key`: what the kind is, the fields its manifests may carry, and its plugins. */
@Injectable()
export class KindPages {
  constructor(private readonly renderer: WebRenderer) {}

  kind(request: Request, response: Response, key: string): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx, key));
  }

  private async build(ctx: WebContext, key: string): Promise<PageOutcome> {
    const { api, t } = ctx;
    const kinds = await api.GET('/api/kinds');
    if (!kinds.data) failed(kinds.response);
    const kind = kinds.data.kinds.find((k) => k.key === key);
    if (!kind) return { status: 404 };
    const page = pageNumber(ctx.request.query.page);
    const plugins = await api.GET('/api/plugins', { params: { query: { kind: kind.key, page, limit: 20 } } });
    if (!plugins.data) failed(plugins.response);
    const fields = [...kind.extensionFields, ...kinds.data.extensionFields];
    const fieldTable = fields.length
      ? scrollRegion(
          t('kind.fields'),
          html`<table class="fields">
  <thead><tr><th scope="col">${t('kind.field')}</th><th scope="col">${t('kind.type')}</th><th scope="col">${t('kind.required')}</th><th scope="col">${t('kind.allowed')}</th></tr></thead>
  <tbody>${fields.map((f) => html`<tr><th scope="row"><code>${f.key}</code></th><td><code>${f.type}</code></td><td>${f.required ? t('browse.yes') : t('browse.no')}</td><td>${f.enum?.length ? f.enum.join(', ') : '—'}</td></tr>`)}</tbody>
</table>`,
        )
      : html`<p>${t('kind.noFields')}</p>`;
    const feed = kindFeed(t, kind.key, kind.label);
    const main = html`<h1>${kind.label}</h1>
${kind.description ? html`<p class="lead">${kind.description}</p>` : null}
<p>${feedAnchor(feed)}</p>
<section aria-labelledby="fields-heading"><h2 id="fields-heading">${t('kind.fields')}</h2>${fieldTable}</section>
<section aria-labelledby="kind-plugins-heading"><h2 id="kind-plugins-heading">${t('kind.plugins')}</h2>
${plugins.data.plugins.length ? pluginList(plugins.data.plugins, t, kindLabels(kinds.data.kinds)) : html`<p>${t('kind.none')}</p>`}
${pagination(pageUrl(ctx.request.originalUrl), plugins.data.page, plugins.data.totalPages, t)}
</section>`;
    return {
      title: t('kind.title', { label: kind.label }),
      description: kind.description ?? t('kind.title', { label: kind.label }),
      main,
      scripts: CATALOGUE_SCRIPTS,
      clientStrings: SUGGEST_CLIENT_STRINGS,
      alternates: [feed],
    };
  }
}
