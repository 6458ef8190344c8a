import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { dataTable, field, pageNumber, pager, queryText, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

type AuditAction = components['schemas']['AuditEntryDto']['action'];

/** Every audited action, for the filter; a Record so a new action in the API is a compile error here. */
const ACTIONS: Record<AuditAction, true> = {
  'plugin.publish_denied': true,
  'plugin.publish_conflict': true,
  'plugin.publish_invalid': true,
  'plugin.publish_asset_fail': true,
  'plugin.yank_denied': true,
  'plugin.deprecate_denied': true,
  'plugin.manifest_asset_missing': true,
  'plugin.claim': true,
  'plugin.publish': true,
  'plugin.yank': true,
  'plugin.unyank': true,
  'plugin.deprecate': true,
  'plugin.undeprecate': true,
  'plugin.verify': true,
  'plugin.unverify': true,
  'plugin.feature': true,
  'plugin.unfeature': true,
  'plugin.manifest_refresh': true,
  'plugin.owners_change': true,
  'release.delete': true,
  'token.create': true,
  'token.revoke': true,
  'trusted_publisher.add': true,
  'trusted_publisher.remove': true,
  'trusted_publisher.displace': true,
  'kind.create': true,
  'kind.update': true,
  'kind.delete': true,
  'extension_fields.update': true,
  'key.rotate': true,
  'forge.create': true,
  'forge.delete': true,
  'key.resign': true,
  'settings.update': true,
  'user.create': true,
  'user.role_change': true,
  'user.disable': true,
  'user.enable': true,
  'webhook.delivery_failed': true,
  'page.create': true,
  'page.update': true,
  'page.delete': true,
  'branding.update': true,
  'i18n.update': true,
  'features.update': true,
  'request.update': true,
  'user.sign_in': true,
  'user.sign_in_failed': true,
  'user.step_up': true,
  'passkey.add': true,
  'passkey.remove': true,
  'password.set': true,
  'password.remove': true,
  'sign_in_link.issue': true,
  'sign_in_link.use': true,
  'subscription.create': true,
  'subscription.delete': true,
  'subscription.enable': true,
  'subscription.disable': true,
};
const ACTION_NAMES = Object.keys(ACTIONS) as AuditAction[];
const PAGE_SIZE = 50;
const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

/** `/admin/audit`: the audit log, newest first, filtered by a plain GET form (no script needed). */
@Injectable()
export class AdminAuditPages {
  constructor(private readonly renderer: WebRenderer) {}

  audit(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api, request } = ctx;
    const action = ACTION_NAMES.find((a) => a === queryText(request, 'action'));
    const slugText = queryText(request, 'slug');
    const slug = slugText && SLUG.test(slugText) ? slugText : undefined;
    const page = pageNumber(request);
    const result = need(
      await api.GET('/api/admin/audit', {
        params: { query: { page, limit: PAGE_SIZE, ...(action ? { action } : {}), ...(slug ? { slug } : {}) } },
      }),
    );
    const rows = result.entries.map((entry) => [
      when(entry.createdAt),
      html`<code>${entry.action}</code>`,
      entry.slug ? html`<a href="/admin/plugins/${entry.slug}">${entry.slug}</a>` : '—',
      entry.actor.userId
        ? html`<code title="${entry.actor.userId}">${entry.actor.userId.slice(0, 8)}</code>${entry.actor.tokenId ? html` <span class="meta">${t('admin.audit.viaToken')}</span>` : null}`
        : '—',
      entry.ip ?? '—',
      Object.keys(entry.details).length > 0 ? html`<code class="audit-details">${JSON.stringify(entry.details)}</code>` : null,
    ]);
    const body = html`<form class="admin-filters" method="get" action="/admin/audit">
${field('audit-action', t('admin.audit.action'), html`<select id="audit-action" name="action"><option value="">${t('admin.any')}</option>${ACTION_NAMES.map((a) => html`<option value="${a}"${a === action ? html` selected` : null}>${a}</option>`)}</select>`)}
${field('audit-slug', t('admin.audit.slug'), html`<input id="audit-slug" name="slug" value="${slug ?? ''}" autocomplete="off">`)}
<p><button type="submit">${t('admin.filter')}</button></p>
</form>
<p class="meta">${t('admin.audit.total', { count: result.total })}</p>
${dataTable(t('admin.section.audit'), [t('admin.audit.when'), t('admin.audit.action'), t('admin.audit.slug'), t('admin.audit.actor'), t('admin.audit.ip'), t('admin.audit.details')], rows, t('admin.audit.none'))}
${pager(t, '/admin/audit', { action, slug }, result.page, result.totalPages)}`;
    return adminPage(ctx, 'audit', t('admin.section.audit'), body);
  }
}
