import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, dataTable, when } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

/** `/admin/keys`: the signing keys and their re-signing progress, and the rotation (confirmed first). */
@Injectable()
export class AdminKeyPages {
  constructor(private readonly renderer: WebRenderer) {}

  keys(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api } = ctx;
    const keys = need(await api.GET('/api/admin/keys')).keys;
    const rows = keys.map((key) => [
      html`<code class="kid">${key.kid}</code>`,
      html`<span class="badge key-${key.state}">${t(`admin.keys.state.${key.state}`)}</span>`,
      when(key.createdAt),
      when(key.retiredAt) ?? '—',
      String(key.pending),
      String(key.resigned),
      String(key.failed),
    ]);
    const body = html`<p>${t('admin.keys.text')}</p>
${dataTable(t('admin.section.keys'), [t('admin.keys.kid'), t('admin.keys.state'), t('admin.keys.created'), t('admin.keys.retired'), t('admin.keys.pending'), t('admin.keys.resigned'), t('admin.keys.failed')], rows, t('admin.keys.none'))}
<section aria-labelledby="admin-rotate"><h2 id="admin-rotate">${t('admin.keys.rotate')}</h2>
<p>${t('admin.keys.rotate.text')}</p>
${actionButton('keys.rotate', t('admin.keys.rotate'), {}, { style: 'danger', confirm: t('admin.keys.rotate.confirm') })}
</section>`;
    return adminPage(ctx, 'keys', t('admin.section.keys'), body);
  }
}
