import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { actionButton, actionForm, checkbox, field } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

type AdminKind = components['schemas']['AdminKindDto'];
type ExtensionField = components['schemas']['ExtensionFieldDto'];

/** Extension field declarations as the JSON an admin edits (one field per line reads best). */
function fieldsJson(fields: readonly ExtensionField[]): string {
  return fields.length === 0 ? '[]' : `[\n${fields.map((f) => `  ${JSON.stringify(f)}`).join(',\n')}\n]`;
}

function fieldsInput(t: Translate, id: string, fields: readonly ExtensionField[]): SafeHtml {
  return field(
    id,
    t('admin.kinds.fields'),
    html`<textarea id="${id}" name="extensionFields" rows="4" spellcheck="false" aria-describedby="${id}-hint">${fieldsJson(fields)}</textarea>`,
    t('admin.kinds.fields.hint'),
  );
}

function kindInputs(t: Translate, prefix: string, kind: AdminKind | null): SafeHtml {
  return html`${kind ? null : field(`${prefix}-key`, t('admin.kinds.key'), html`<input id="${prefix}-key" name="key" required pattern="[a-z0-9][a-z0-9\\-]*" autocomplete="off">`)}
${field(`${prefix}-label`, t('admin.kinds.label'), html`<input id="${prefix}-label" name="label" required value="${kind?.label ?? ''}">`)}
${field(`${prefix}-description`, t('admin.kinds.description'), html`<input id="${prefix}-description" name="description" value="${kind?.description ?? ''}">`)}
${checkbox(`${prefix}-enabled`, 'enabled', t('admin.kinds.enabled'), kind?.enabled ?? true)}
${checkbox(`${prefix}-provenance`, 'requireProvenance', t('admin.kinds.requireProvenance'), kind?.requireProvenance ?? false)}
${fieldsInput(t, `${prefix}-fields`, kind?.extensionFields ?? [])}`;
}

/** `/admin/kinds`: every kind (disabled ones too) with its extension fields, and the fields every kind has. */
@Injectable()
export class AdminKindPages {
  constructor(private readonly renderer: WebRenderer) {}

  kinds(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.build(ctx)));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, api } = ctx;
    const [kindList, shared] = await Promise.all([api.GET('/api/admin/kinds'), api.GET('/api/admin/extension-fields')]);
    const kinds = need(kindList).kinds;
    const fields = need(shared).fields;
    const kindBlocks = kinds.map(
      (kind) => html`<details class="admin-item">
<summary><strong>${kind.label}</strong> <code>${kind.key}</code>${kind.enabled ? null : html` <span class="badge">${t('admin.kinds.disabled')}</span>`} <span class="meta">${t('admin.kinds.fieldCount', { count: kind.extensionFields.length })}</span></summary>
${actionForm('kind.update', { key: kind.key }, kindInputs(t, `kind-${kind.key}`, kind), t('action.save'))}
${actionButton('kind.delete', t('admin.kinds.delete'), { key: kind.key }, { style: 'danger', confirm: t('admin.kinds.delete.confirm', { key: kind.key }) })}
</details>`,
    );
    const body = html`<section aria-labelledby="admin-kinds-list"><h2 id="admin-kinds-list">${t('admin.kinds.list')}</h2>
${kinds.length > 0 ? kindBlocks : html`<p class="admin-empty">${t('admin.kinds.none')}</p>`}
</section>
<section aria-labelledby="admin-kinds-new"><h2 id="admin-kinds-new">${t('admin.kinds.create')}</h2>
${actionForm('kind.create', {}, kindInputs(t, 'kind-new', null), t('admin.kinds.create'))}
</section>
<section aria-labelledby="admin-kinds-shared"><h2 id="admin-kinds-shared">${t('admin.kinds.shared')}</h2>
<p>${t('admin.kinds.shared.text')}</p>
${actionForm('fields.update', {}, fieldsInput(t, 'shared-fields', fields), t('action.save'))}
</section>`;
    return adminPage(ctx, 'kinds', t('admin.section.kinds'), body);
  }
}
