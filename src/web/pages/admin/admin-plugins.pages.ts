import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, actionForm, dataTable, field, pageNumber, pager, queryText, when } from './admin-components';
import { activitySection, ADMIN_ACTIVITY_DAYS } from './admin-activity';
import { pluginDeliveryTable } from './admin-deliveries.pages';
import { adminPage, asAdmin, need } from './admin-frame';

type Delivery = components['schemas']['DeliveryDto'];

const PAGE_SIZE = 25;

/** `/admin/plugins`: the catalogue with a search box; `/admin/plugins/:slug`: one plugin's moderation. */
@Injectable()
export class AdminPluginPages {
  constructor(private readonly renderer: WebRenderer) {}

  list(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildList(ctx)));
  }

  /** `/admin`: the catalogue list under the activity charts. */
  home(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildList(ctx, true)));
  }

  detail(request: Request, response: Response, slug: string): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildDetail(ctx, slug)));
  }

  private async buildList(ctx: WebContext, home = false): Promise<PageOutcome> {
    const { t, api, request } = ctx;
    const search = queryText(request, 'search');
    const page = pageNumber(request);
    const query = { limit: String(PAGE_SIZE), page: String(page), ...(search ? { search } : {}) };
    const [listed, activity] = await Promise.all([
      api.GET('/api/plugins', { params: { query: query as never } }),
      home ? api.GET('/api/admin/activity', { params: { query: { days: ADMIN_ACTIVITY_DAYS } } }) : null,
    ]);
    const result = need(listed);
    const rows = result.plugins.map((p) => [
      html`<a href="/admin/plugins/${p.slug}">${p.name}</a><br><code>${p.slug}</code>`,
      p.latestVersion ?? p.latestPrerelease ?? '—',
      html`${p.verified ? html`<span class="badge verified">${t('badge.verified')}</span>` : null}${p.featured ? html`<span class="badge featured">${t('badge.featured')}</span>` : null}`,
      p.downloads.toLocaleString('en'),
      when(p.updatedAt),
    ]);
    const body = html`${home ? activitySection(ctx, activity?.data ?? null) : null}
<form class="admin-filters" method="get" action="/admin/plugins" role="search">
${field('admin-plugin-search', t('admin.plugins.search'), html`<input id="admin-plugin-search" name="search" type="search" value="${search ?? ''}">`)}
<p><button type="submit">${t('search.submit')}</button></p>
</form>
<p class="meta">${t('admin.plugins.total', { count: result.total })}</p>
${dataTable(t('admin.section.plugins'), [t('admin.plugins.name'), t('admin.plugins.version'), t('admin.plugins.state'), t('admin.plugins.downloads'), t('admin.plugins.updated')], rows, t('admin.plugins.none'))}
${pager(t, '/admin/plugins', { search }, result.page, result.totalPages)}`;
    return adminPage(ctx, 'plugins', t('admin.section.plugins'), body);
  }

  private async buildDetail(ctx: WebContext, slug: string): Promise<PageOutcome> {
    const { t, api } = ctx;
    const path = { path: { slug } };
    const [adminView, detail, deliveries] = await Promise.all([
      api.GET('/api/admin/plugins/{slug}', { params: path }),
      api.GET('/api/plugins/{slug}', { params: path }),
      ctx.features.webhooks !== false ? api.GET('/api/plugins/{slug}/deliveries', { params: path }) : Promise.resolve(null),
    ]);
    const plugin = need(adminView);
    const releases = need(detail).releases;
    const s = { slug: plugin.slug };
    const state = html`<p class="badges">${plugin.verified ? html`<span class="badge verified">${t('badge.verified')}</span>` : null}${plugin.featured ? html`<span class="badge featured">${t('badge.featured')}</span>` : null}${plugin.repoVerified ? html`<span class="badge">${t('admin.plugin.repoVerified')}</span>` : null}</p>`;
    const moderation = html`<div class="admin-actions">
${plugin.verified ? actionButton('plugin.unverify', t('admin.plugin.unverify'), s, { style: 'secondary' }) : actionButton('plugin.verify', t('admin.plugin.verify'), s)}
${plugin.featured ? actionButton('plugin.unfeature', t('admin.plugin.unfeature'), s, { style: 'secondary' }) : actionButton('plugin.feature', t('admin.plugin.feature'), s)}
${actionButton('plugin.refresh', t('admin.plugin.refresh'), s, { style: 'secondary' })}
</div>`;
    const releaseRows = releases.map((r) => [
      html`<code>${r.version}</code>${r.prerelease ? html` <span class="badge">${t('admin.plugin.prerelease')}</span>` : null}${r.yanked ? html` <span class="badge yanked">${t('admin.plugin.yanked')}</span>` : null}`,
      r.downloads.toLocaleString('en'),
      when(r.createdAt),
      actionButton(
        'release.delete',
        t('action.delete'),
        { ...s, version: r.version },
        {
          style: 'danger',
          confirm: t('admin.plugin.deleteRelease.confirm', { version: r.version }),
          ariaLabel: t('admin.plugin.deleteRelease', { version: r.version }),
        },
      ),
    ]);
    const ownerRows = plugin.owners.map((o) => [
      o.login,
      o.instance,
      actionButton(
        'owner.remove',
        t('admin.plugin.owner.remove'),
        { ...s, user: o.userId },
        {
          style: 'secondary',
          confirm: t('admin.plugin.owner.remove.confirm', { login: o.login }),
          ariaLabel: t('admin.plugin.owner.removeNamed', { login: o.login }),
        },
      ),
    ]);
    const body = html`<p class="meta"><a href="/plugins/${plugin.slug}">${t('admin.plugin.publicPage')}</a> · <a href="${plugin.repoUrl}" rel="noopener">${plugin.repoUrl}</a>${plugin.latestVersion ? html` · ${t('admin.plugin.latest', { version: plugin.latestVersion })}` : null}${plugin.verifiedAt ? html` · ${t('admin.plugin.verifiedAt')} ${when(plugin.verifiedAt)}` : null}</p>
${state}
<section aria-labelledby="admin-moderation"><h2 id="admin-moderation">${t('admin.plugin.moderation')}</h2>${moderation}</section>
<section aria-labelledby="admin-releases"><h2 id="admin-releases">${t('admin.plugin.releases')}</h2>
${dataTable(t('admin.plugin.releases'), [t('admin.plugins.version'), t('admin.plugins.downloads'), t('admin.plugin.published'), t('admin.actions')], releaseRows, t('admin.plugin.noReleases'))}
</section>
<section aria-labelledby="admin-owners"><h2 id="admin-owners">${t('admin.plugin.owners')}</h2>
${dataTable(t('admin.plugin.owners'), [t('admin.users.login'), t('admin.users.instance'), t('admin.actions')], ownerRows, t('admin.plugin.noOwners'))}
${actionForm('owner.add', s, field('admin-owner-login', t('admin.plugin.owner.login'), html`<input id="admin-owner-login" name="login" required autocomplete="off">`, t('admin.plugin.owner.hint')), t('admin.plugin.owner.add'), { className: 'admin-form inline' })}
</section>
${deliveries ? this.deliveries(ctx, plugin.slug, deliveries.data?.deliveries ?? []) : null}`;
    return adminPage(ctx, 'plugins', plugin.name, body, ['admin.owner.unknown']);
  }

  private deliveries(ctx: WebContext, slug: string, deliveries: readonly Delivery[]): SafeHtml {
    return html`<section aria-labelledby="admin-deliveries"><h2 id="admin-deliveries">${ctx.t('admin.plugin.deliveries')}</h2>
${pluginDeliveryTable(ctx, slug, deliveries)}
</section>`;
  }
}
