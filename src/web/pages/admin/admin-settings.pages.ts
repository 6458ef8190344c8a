import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import type { components } from '../../../client/registry-client';
import { forgeFields } from '../../components/forge-fields';
import { actionButton, actionForm, checkbox, dataTable, field } from './admin-components';
import { adminPage, asAdmin, need } from './admin-frame';

/** A setting's declaration as GET /api/admin/settings describes it. */
interface Definition {
  type?: string;
  description?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}

/** One setting's input, typed by its declaration; admin.ts converts it back by `data-type`. */
function settingInput(key: string, value: unknown, definition: Definition): SafeHtml {
  const id = `setting-${key.replace(/[^a-z0-9]/gi, '-')}`;
  const hint = definition.description ?? null;
  switch (definition.type) {
    case 'flag':
      return html`<div class="field check"><label for="${id}"><input id="${id}" name="${key}" type="checkbox" data-type="flag"${value === 1 || value === true ? html` checked` : null} aria-describedby="${id}-hint"> <code>${key}</code></label><small id="${id}-hint">${hint}</small></div>`;
    case 'integer':
      return field(
        id,
        key,
        html`<input id="${id}" name="${key}" type="number" inputmode="numeric" step="1" data-type="integer" required value="${String(value)}"${definition.min !== undefined ? html` min="${definition.min}"` : null}${definition.max !== undefined ? html` max="${definition.max}"` : null} aria-describedby="${id}-hint">`,
        hint,
      );
    case 'file-name[]':
      return field(
        id,
        key,
        html`<textarea id="${id}" name="${key}" data-type="lines" rows="${Math.min(8, Math.max(3, Array.isArray(value) ? value.length : 3))}" spellcheck="false" aria-describedby="${id}-hint">${Array.isArray(value) ? value.join('\n') : ''}</textarea>`,
        hint,
      );
    default:
      return field(
        id,
        key,
        html`<input id="${id}" name="${key}" data-type="string" value="${String(value ?? '')}"${definition.maxLength ? html` maxlength="${definition.maxLength}"` : null} aria-describedby="${id}-hint">`,
        hint,
      );
  }
}

type ForgeInstance = components['schemas']['ForgeInstanceDto'];

/** The forge instances (a table; added ones removable) and the form that adds one, live at once. */
function forgesSection(ctx: WebContext, forges: readonly ForgeInstance[], callbackTemplate: string): SafeHtml {
  const { t } = ctx;
  const rows = forges.map((f) => [
    html`<code>${f.name}</code>`,
    f.type,
    f.webUrl,
    t(`admin.forges.source.${f.source}`),
    f.signIn ? t('admin.forges.signIn.yes') : t('admin.forges.signIn.no'),
    html`<code class="callback">${f.callbackUrl}</code>`,
    f.source === 'stored'
      ? actionButton(
          'forge.delete',
          t('admin.forges.remove'),
          { name: f.name },
          { confirm: t('admin.forges.confirm'), style: 'danger', ariaLabel: t('admin.forges.removeLabel', { name: f.name }) },
        )
      : '',
  ]);
  const head = [
    t('admin.forges.name'),
    t('admin.forges.type'),
    t('admin.forges.webUrl'),
    t('admin.forges.source'),
    t('admin.forges.signIn'),
    t('admin.forges.callback'),
    t('admin.forges.actions'),
  ];
  return html`<section id="forges" aria-labelledby="admin-forges"><h2 id="admin-forges">${t('admin.forges.title')}</h2>
<p>${t('admin.forges.text')}</p>
${dataTable(t('admin.forges.caption'), head, rows, t('admin.forges.none'))}
<h3 id="admin-forge-add">${t('admin.forges.add')}</h3>
${actionForm('forge.create', {}, forgeFields(t, 'forge-add', callbackTemplate), t('admin.forges.add'))}
</section>`;
}

/** `/admin/settings`: the operator settings and the forge instances; `/admin/site`: branding, languages and feature flags. */
@Injectable()
export class AdminSettingsPages {
  constructor(private readonly renderer: WebRenderer) {}

  settings(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildSettings(ctx)));
  }

  site(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => asAdmin(ctx, () => this.buildSite(ctx)));
  }

  private async buildSettings(ctx: WebContext): Promise<PageOutcome> {
    const { t, api } = ctx;
    const [settings, forges, providers] = await Promise.all([
      api.GET('/api/admin/settings'),
      api.GET('/api/admin/forges'),
      api.GET('/api/auth/providers'),
    ]);
    const { definitions, ...values } = need(settings);
    const inputs = Object.entries(values as Record<string, unknown>).map(([key, value]) =>
      settingInput(key, value, (definitions[key] ?? {}) as Definition),
    );
    const body = html`<p>${t('admin.settings.text')}</p>
${actionForm('settings.update', {}, html`${inputs}`, t('action.save'))}
${forgesSection(ctx, need(forges).forges, providers.data?.callbackUrlTemplate ?? '')}`;
    return adminPage(ctx, 'settings', t('admin.section.settings'), body);
  }

  private async buildSite(ctx: WebContext): Promise<PageOutcome> {
    const { t, api } = ctx;
    const [brandingResult, i18nResult, featuresResult] = await Promise.all([
      api.GET('/api/branding'),
      api.GET('/api/i18n'),
      api.GET('/api/features'),
    ]);
    const branding = need(brandingResult);
    const i18n = need(i18nResult);
    const flags = need(featuresResult).flags;
    const brandingInputs = html`${field('branding-name', t('admin.site.siteName'), html`<input id="branding-name" name="siteName" required maxlength="100" value="${branding.siteName}">`)}
${field('branding-logo', t('admin.site.logoUrl'), html`<input id="branding-logo" name="logoUrl" type="url" value="${branding.logoUrl ?? ''}" aria-describedby="branding-logo-hint">`, t('admin.site.logoUrl.hint'))}
${field('branding-color', t('admin.site.primaryColor'), html`<input id="branding-color" name="primaryColor" type="color" value="${branding.primaryColor}">`)}
${field('branding-links', t('admin.site.links'), html`<textarea id="branding-links" name="links" rows="3" spellcheck="false" aria-describedby="branding-links-hint">${branding.links.map((l) => `${l.label} | ${l.url}`).join('\n')}</textarea>`, t('admin.site.links.hint'))}`;
    const i18nInputs = html`${field('i18n-default', t('admin.site.defaultLocale'), html`<input id="i18n-default" name="defaultLocale" required value="${i18n.defaultLocale}" autocomplete="off">`)}
${field('i18n-locales', t('admin.site.locales'), html`<input id="i18n-locales" name="locales" required value="${i18n.locales.join(', ')}" autocomplete="off" aria-describedby="i18n-locales-hint">`, t('admin.site.locales.hint'))}`;
    const flagInputs = html`<fieldset><legend>${t('admin.site.flags')}</legend>${Object.entries(flags).map(([flag, on]) => checkbox(`flag-${flag}`, flag, t('admin.site.flag', { flag }), on))}</fieldset>`;
    const body = html`<section aria-labelledby="admin-branding"><h2 id="admin-branding">${t('admin.site.branding')}</h2>
${actionForm('branding.update', {}, brandingInputs, t('action.save'))}
</section>
<section aria-labelledby="admin-i18n"><h2 id="admin-i18n">${t('admin.site.i18n')}</h2>
${actionForm('i18n.update', {}, i18nInputs, t('action.save'))}
</section>
<section aria-labelledby="admin-flags"><h2 id="admin-flags">${t('admin.site.features')}</h2>
${actionForm('features.update', {}, flagInputs, t('action.save'))}
</section>`;
    return adminPage(ctx, 'site', t('admin.section.site'), body);
  }
}
