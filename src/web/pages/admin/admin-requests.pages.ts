import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionForm, dataTable, field, pageNumber, pager, queryText, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

const PAGE_SIZE = 25;
const STATUSES = ['open', 'fulfilled', 'closed'] as const;

/** `/admin/requests`: the wishlist, to mark a request fulfilled by a plugin, close it or open it again. */
@Injectable()
export class AdminRequestPages {
  constructor(private readonly renderer: WebRenderer) {}

  requests(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api, request } = ctx;
    const status = STATUSES.find((s) => s === queryText(request, 'status'));
    const page = pageNumber(request);
    const listed = await api.GET('/api/requests', {
      params: { query: { page, limit: PAGE_SIZE, sort: 'new', ...(status ? { status } : {}) } },
    });
    // The wishlist flag hides the public list; moderation then waits until it is on again.
    if (listed.response.status === 404)
      return adminPage(ctx, 'requests', t('admin.section.requests'), html`<p>${t('admin.requests.off')}</p>`);
    const result = need(listed);
    const rows = result.requests.map((r) => {
      const id = `request-${r.id}`;
      const form = actionForm(
        'request.update',
        { id: r.id },
        html`<div class="field"><label for="${id}-status">${t('admin.requests.status')}</label><select id="${id}-status" name="status">${STATUSES.map((s) => html`<option value="${s}"${s === r.status ? html` selected` : null}>${t(`admin.requests.status.${s}`)}</option>`)}</select></div>
<div class="field"><label for="${id}-plugin">${t('admin.requests.plugin')}</label><input id="${id}-plugin" name="plugin" value="${r.plugin ?? ''}" autocomplete="off"></div>`,
        t('action.save'),
        { className: 'admin-form inline' },
      );
      return [
        html`<strong>${r.title}</strong>${r.description ? html`<br><span class="meta">${r.description}</span>` : null}`,
        r.kind ?? '—',
        String(r.votes),
        when(r.createdAt),
        form,
      ];
    });
    const pages = Math.max(1, Math.ceil(result.total / result.limit));
    const body = html`<form class="admin-filters" method="get" action="/admin/requests">
${field('requests-status', t('admin.requests.status'), html`<select id="requests-status" name="status"><option value="">${t('admin.any')}</option>${STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${t(`admin.requests.status.${s}`)}</option>`)}</select>`)}
<p><button type="submit">${t('admin.filter')}</button></p>
</form>
${dataTable(t('admin.section.requests'), [t('admin.requests.title'), t('admin.requests.kind'), t('admin.requests.votes'), t('admin.requests.created'), t('admin.requests.moderate')], rows, t('admin.requests.none'))}
${pager(t, '/admin/requests', { status }, result.page, pages)}`;
    return adminPage(ctx, 'requests', t('admin.section.requests'), body);
  }
}
