import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { platformFromUserAgent } from '../../../lib/platform/platform';
import type { components } from '../../../client/registry-client';
import { feedAnchor, ownerFeed, pluginFeed } from '../../components/feed-links';
import { html, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { apiLocale, failed, formatDate, missing, safeUrl, CATALOGUE_SCRIPTS, SUGGEST_CLIENT_STRINGS } from './catalogue-parts';
import { downloadsChartSection, PLUGIN_CHART_DAYS } from './plugin-downloads';
import {
  type Latest,
  downloadSection,
  extensionFacts,
  integritySection,
  linksSection,
  pluginIcon,
  readmeSection,
  screenshotsSection,
  statsSection,
  versionsSection,
} from './plugin-sections';

type PluginDetail = components['schemas']['PluginDetailDto'];

/** A deprecated plugin's notice: the owners' message, since when, and a link to the replacement. */
function deprecationNotice(deprecated: PluginDetail['deprecated'], locale: string, t: WebContext['t']): SafeHtml | null {
  if (!deprecated) return null;
  // The sentence is translated whole; the replacement's link takes the place of its name.
  const [before, after = ''] = t('plugin.deprecated.replacement', { replacement: '\u0000' }).split('\u0000');
  return html`<section class="deprecation-notice" aria-labelledby="deprecated-heading">
  <h2 id="deprecated-heading">${t('plugin.deprecated.title')}</h2>
  <p class="deprecation-message">${deprecated.message}</p>
  <p>${t('plugin.deprecated.since', { date: formatDate(deprecated.since, locale) })}${
    deprecated.replacement
      ? html` ${before}<a href="/plugins/${deprecated.replacement}" class="deprecation-replacement">${deprecated.replacement}</a>${after}`
      : null
  }</p>
</section>`;
}

/**
 * `/plugins/:slug`: everything a visitor (or a search engine, or a link preview) needs, in the
 * HTML the server sends: the README, downloads for their platform and every other, integrity.
 */
@Injectable()
export class PluginPages {
  constructor(private readonly renderer: WebRenderer) {}

  plugin(request: Request, response: Response, slug: string): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx, slug));
  }

  private async build(ctx: WebContext, slug: string): Promise<PageOutcome> {
    const { api, t, request } = ctx;
    const locale = apiLocale(request.query.locale) ?? apiLocale(ctx.locale);
    const detail = await api.GET('/api/plugins/{slug}', { params: { path: { slug }, query: locale ? { locale } : {} } });
    if (!detail.data) return missing(detail.response.status) ? { status: 404 } : failed(detail.response);
    const plugin = detail.data;
    const version = plugin.latestVersion ?? plugin.latestPrerelease;
    // The API reads the platform from the User-Agent, but it sees this server's; so it is told.
    const platform = platformFromUserAgent(request.headers['user-agent']);
    const target = { ...(platform.os ? { os: platform.os } : {}), ...(platform.arch ? { arch: platform.arch } : {}) };
    const [latest, release, stats, kinds, downloads] = await Promise.all([
      version
        ? api.GET('/api/plugins/{slug}/latest', {
            params: { path: { slug }, query: { ...target, ...(plugin.latestVersion ? {} : { prerelease: '1' as const }) } },
          })
        : null,
      version ? api.GET('/api/plugins/{slug}/releases/{version}', { params: { path: { slug, version } } }) : null,
      api.GET('/api/plugins/{slug}/stats', { params: { path: { slug } } }),
      api.GET('/api/kinds'),
      // Downloads per day: its own indexed read, never part of the stored detail.
      api.GET('/api/plugins/{slug}/downloads', { params: { path: { slug }, query: { days: PLUGIN_CHART_DAYS } } }),
    ]);
    const kindLabel = kinds.data?.kinds.find((k) => k.key === plugin.kind)?.label ?? plugin.kind;
    // A 422 (no asset for this platform, none universal) still lists every platform.
    const unmatched = latest?.response.status === 422 ? (latest.error as Partial<Latest>) : null;
    const latestData: Latest | null =
      latest?.data ??
      (unmatched
        ? {
            slug,
            version: unmatched.version ?? version ?? '',
            download_url: '',
            platform: null,
            platforms: unmatched.platforms ?? {},
            skipped: [],
            freshness: null,
          }
        : null);
    const latestRelease = plugin.releases.find((r) => r.version === version);
    const origin = `${request.protocol}://${request.get('host') ?? 'localhost'}`;
    const facts = html`<dl class="facts">
  ${plugin.kind ? html`<dt>${t('plugin.kind')}</dt><dd><a href="/kinds/${plugin.kind}">${kindLabel}</a></dd>` : null}
  ${extensionFacts(plugin, kinds.data ?? null, t)}
  ${plugin.category ? html`<dt>${t('plugin.category')}</dt><dd><a href="/plugins?category=${encodeURIComponent(plugin.category)}">${plugin.category}</a></dd>` : null}
  ${plugin.tags.length ? html`<dt>${t('plugin.tags')}</dt><dd><ul class="tags">${plugin.tags.map((tag) => html`<li><a href="/plugins?tag=${encodeURIComponent(tag)}">${tag}</a></li>`)}</ul></dd>` : null}
  <dt>${t('plugin.license')}</dt><dd>${plugin.license ?? t('plugin.noLicense')}</dd>
  <dt>${t('plugin.minRuntime')}</dt><dd>${latestRelease?.minRuntimeVersion ?? t('plugin.anyRuntime')}</dd>
  ${plugin.owners.length ? html`<dt>${t('plugin.by')}</dt><dd>${plugin.owners.map((o) => o.login).join(', ')}</dd>` : null}
  <dt>${t('plugin.downloadCount')}</dt><dd>${t.number(plugin.downloads)}</dd>
</dl>`;
    const feed = pluginFeed(t, plugin.slug, plugin.name);
    const main = html`<article class="plugin" itemscope itemtype="https://schema.org/SoftwareApplication">
<header class="plugin-head">
  ${pluginIcon(plugin)}
  <h1 itemprop="name">${plugin.name}${version ? html` <span class="version">${version}</span>` : null}</h1>
  <p class="badges">${plugin.verified ? html`<span class="badge verified">${t('badge.verified')}</span>` : null}${plugin.featured ? html`<span class="badge featured">${t('badge.featured')}</span>` : null}${plugin.deprecated ? html`<span class="badge deprecated">${t('badge.deprecated')}</span>` : null}</p>
  ${plugin.description ? html`<p class="lead" itemprop="description">${plugin.description}</p>` : null}
</header>
${deprecationNotice(plugin.deprecated, ctx.locale, t)}
<div class="plugin-layout">
  <div class="plugin-download">${downloadSection(latestData, t)}</div>
  <div class="plugin-main">
    ${readmeSection(plugin, t)}
    ${screenshotsSection(plugin, t)}
    ${versionsSection(plugin, ctx.locale, t)}
    ${integritySection(plugin.slug, release?.data ?? null, origin, ctx.locale, t)}
  </div>
  <aside class="plugin-side" aria-label="${t('plugin.details')}">
    <section aria-labelledby="facts-heading"><h2 id="facts-heading">${t('plugin.details')}</h2>${facts}<p>${feedAnchor(feed)}</p></section>
    ${linksSection(plugin, stats.data ?? null, t)}
    ${statsSection(stats.data ?? null, ctx.locale, t)}
    ${downloadsChartSection(plugin.name, downloads.data ?? null, ctx.locale, t)}
  </aside>
</div>
</article>`;
    return {
      title: plugin.name,
      description: plugin.description ?? t('plugin.version', { version: version ?? '' }),
      ogType: 'article',
      // The icon as served here (the largest square), else the manifest's own URL.
      ogImage: plugin.images?.icon
        ? `${origin}${plugin.images.icon.variants[plugin.images.icon.variants.length - 1].url}`
        : safeUrl(plugin.icon),
      main,
      scripts: CATALOGUE_SCRIPTS,
      clientStrings: SUGGEST_CLIENT_STRINGS,
      alternates: [feed, ...plugin.owners.map((owner) => ownerFeed(t, owner))],
    };
  }
}
