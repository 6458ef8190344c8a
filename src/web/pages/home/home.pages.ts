import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catalogueFeed, feedAnchor } from '../../components/feed-links';
import { kindLabels, pluginList } from '../../components/plugin-card';
import { CATALOGUE_SCRIPTS, SUGGEST_CLIENT_STRINGS } from '../catalogue/catalogue-parts';
import type { CatalogueParams } from '../catalogue/catalogue-query';
import { html } from '../../html';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import type { WebContext } from '../../web-context';

/** `/`: headline figures, featured and verified plugins, the kinds, and the search box (in the header); on a fresh instance, a pointer to /setup. */
@Injectable()
export class HomePages {
  constructor(private readonly renderer: WebRenderer) {}

  home(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { api, t } = ctx;
    const list = (query: CatalogueParams) => api.GET('/api/plugins', { params: { query: { limit: 6, ...query } } });
    const [status, stats, featured, verified, recent, kinds] = await Promise.all([
      api.GET('/api/init/status'),
      ctx.features.stats !== false ? api.GET('/api/stats') : Promise.resolve(null),
      list({ featured: '1' }),
      list({ verified: '1' }),
      list({ sort: 'updated' }),
      api.GET('/api/kinds'),
    ]);
    const figure = (count: number, key: string) => html`<li><strong>${t.number(count)}</strong> ${t.count(key, count)}</li>`;
    const figures = stats?.data
      ? html`<ul class="stats">
  ${figure(stats.data.plugins, 'home.stats.plugins')}
  ${figure(stats.data.downloads, 'home.stats.downloads')}
  ${figure(stats.data.authors, 'home.stats.authors')}
  ${figure(stats.data.kinds, 'home.stats.kinds')}
</ul>`
      : null;
    const kindList = kinds.data?.kinds ?? [];
    const labels = kindLabels(kindList);
    const section = (title: string, plugins: typeof recent.data) =>
      plugins && plugins.plugins.length > 0 ? html`<section><h2>${title}</h2>${pluginList(plugins.plugins, t, labels)}</section>` : null;
    // A fresh instance says so and points at the wizard; nobody can sign in before it ran.
    const setup =
      status.data?.initialized === false
        ? html`<section class="setup-notice" aria-labelledby="setup-notice-title"><h2 id="setup-notice-title">${t('home.setup.title')}</h2><p>${t('home.setup.text')}</p><p><a class="button" href="/setup">${t('home.setup.link')}</a></p></section>`
        : null;
    const main = html`<section class="hero">
  <h1>${ctx.branding.siteName}</h1>
  <p>${t('home.tagline')}</p>
  ${figures}
</section>
${setup}
${section(t('home.featured'), featured.data)}
${section(t('home.verified'), verified.data)}
${section(t('home.recent'), recent.data) ?? html`<p>${t('home.empty')}</p>`}
${kindList.length > 0 ? html`<section><h2>${t('home.kinds')}</h2><ul class="kinds">${kindList.map((k) => html`<li><a href="/kinds/${k.key}">${k.label}</a>${k.description ? html` <span>${k.description}</span>` : null}</li>`)}</ul></section>` : null}
<p><a class="button" href="/plugins">${t('home.browseAll')}</a> ${feedAnchor(catalogueFeed(t))}</p>`;
    return {
      title: '',
      description: t('home.tagline'),
      main,
      scripts: CATALOGUE_SCRIPTS,
      clientStrings: SUGGEST_CLIENT_STRINGS,
      alternates: [catalogueFeed(t)],
    };
  }
}
