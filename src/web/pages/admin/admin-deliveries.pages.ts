import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { html, type HtmlValue, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, dataTable, field, pageNumber, pager, queryText, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

type Delivery = components['schemas']['DeliveryDto'];
type DeliveryStatus = Delivery['status'];

/** Every delivery status, for the filter; a Record so a new status in the API is a compile error here. */
const STATUSES: Record<DeliveryStatus, true> = { queued: true, processing: true, succeeded: true, skipped: true, failed: true };
const STATUS_NAMES = Object.keys(STATUSES) as DeliveryStatus[];
const PAGE_SIZE = 50;
const SLUG = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** A delivery's cells after its plugin: tag, status, reason (with detail and violations), attempts, received, and Replay when failed. */
function deliveryCells(ctx: WebContext, slug: string, d: Delivery): HtmlValue[] {
  const { t } = ctx;
  return [
    html`<code class="delivery-tag">${d.tag}</code>`,
    html`<span class="badge delivery-status" data-status="${d.status}">${d.status}</span>`,
    html`${d.reason ? html`<code>${d.reason}</code>` : null}${d.detail ? html` ${d.detail}` : null}${d.violations?.length ? html`<ul class="violations">${d.violations.map((v) => html`<li><code>${v.path}</code> ${v.message}</li>`)}</ul>` : null}`,
    String(d.attempts),
    when(d.createdAt),
    d.status === 'failed'
      ? actionButton(
          'delivery.replay',
          t('admin.plugin.replay'),
          { slug, id: d.id },
          { style: 'secondary', ariaLabel: t('admin.plugin.replayNamed', { tag: d.tag }) },
        )
      : null,
  ];
}

function deliveryHead(ctx: WebContext): string[] {
  const { t } = ctx;
  return [
    t('admin.plugin.tag'),
    t('admin.plugin.status'),
    t('admin.plugin.reason'),
    t('admin.plugin.attempts'),
    t('admin.plugin.received'),
    t('admin.actions'),
  ];
}

/** One plugin's deliveries as a table (its moderation page). */
export function pluginDeliveryTable(ctx: WebContext, slug: string, deliveries: readonly Delivery[]): SafeHtml {
  return dataTable(
    ctx.t('admin.plugin.deliveries'),
    deliveryHead(ctx),
    deliveries.map((d) => deliveryCells(ctx, slug, d)),
    ctx.t('admin.plugin.noDeliveries'),
  );
}

/** `/admin/deliveries`: every plugin's webhook deliveries, newest first, filtered by a plain GET form. */
@Injectable()
export class AdminDeliveryPages {
  constructor(private readonly renderer: WebRenderer) {}

  deliveries(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api, request } = ctx;
    const status = STATUS_NAMES.find((s) => s === queryText(request, 'status'));
    const slugText = queryText(request, 'slug');
    const slug = slugText && SLUG.test(slugText) ? slugText : undefined;
    const page = pageNumber(request);
    const result = need(
      await api.GET('/api/admin/deliveries', {
        params: { query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}), ...(slug ? { slug } : {}) } },
      }),
    );
    const rows = result.deliveries.map((d) => [html`<a href="/admin/plugins/${d.slug}">${d.slug}</a>`, ...deliveryCells(ctx, d.slug, d)]);
    const body = html`<form class="admin-filters" method="get" action="/admin/deliveries">
${field('deliveries-status', t('admin.plugin.status'), html`<select id="deliveries-status" name="status"><option value="">${t('admin.any')}</option>${STATUS_NAMES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${s}</option>`)}</select>`)}
${field('deliveries-slug', t('admin.audit.slug'), html`<input id="deliveries-slug" name="slug" value="${slug ?? ''}" autocomplete="off">`)}
<p><button type="submit">${t('admin.filter')}</button></p>
</form>
<p class="meta">${t('admin.deliveries.total', { count: result.total })}</p>
${dataTable(t('admin.section.deliveries'), [t('admin.deliveries.plugin'), ...deliveryHead(ctx)], rows, t('admin.deliveries.none'))}
${pager(t, '/admin/deliveries', { status, slug }, result.page, result.totalPages)}`;
    return adminPage(ctx, 'deliveries', t('admin.section.deliveries'), body);
  }
}
