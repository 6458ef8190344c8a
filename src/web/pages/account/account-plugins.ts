import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { shortDate } from './providers';
import { releasesManage, type ReleaseSummary } from './account-releases';

export type MyPlugin = components['schemas']['MyPluginDto'];
export type Delivery = components['schemas']['DeliveryDto'];

function reason(delivery: Delivery): SafeHtml | null {
  if (!delivery.reason && !delivery.detail) return null;
  const violations = delivery.violations ?? [];
  return html`${delivery.reason ? html`<code>${delivery.reason}</code>` : null}${delivery.detail ? html` ${delivery.detail}` : null}${
    violations.length > 0
      ? html`<ul class="violations">${violations.map((v) => html`<li><code>${v.path || '/'}</code> ${v.message}</li>`)}</ul>`
      : null
  }`;
}

function deliveriesTable(plugin: MyPlugin, deliveries: readonly Delivery[] | null, t: Translate): SafeHtml | null {
  if (deliveries === null) return null;
  if (deliveries.length === 0) return html`<p class="meta">${t('account.deliveries.none')}</p>`;
  const id = `deliveries-${plugin.slug}`;
  return html`<div class="table-scroll" role="group" tabindex="0" aria-label="${t('account.deliveries.title', { name: plugin.name })}"><table id="${id}" class="stack-table">
  <caption>${t('account.deliveries.title', { name: plugin.name })}</caption>
  <thead><tr><th scope="col">${t('account.deliveries.tag')}</th><th scope="col">${t('account.deliveries.status')}</th><th scope="col">${t('account.deliveries.reason')}</th><th scope="col">${t('account.deliveries.attempts')}</th><th scope="col">${t('account.deliveries.received')}</th><th scope="col"><span class="visually-hidden">${t('account.deliveries.actions')}</span></th></tr></thead>
  <tbody>${deliveries.map(
    (d) => html`<tr>
    <td class="nowrap" data-label="${t('account.deliveries.tag')}"><code>${d.tag}</code>${d.version ? html` → ${d.version}` : null}</td>
    <td data-label="${t('account.deliveries.status')}"><span class="badge delivery-${d.status}" data-delivery-status>${d.status}</span></td>
    <td class="reason" data-label="${t('account.deliveries.reason')}">${reason(d)}</td>
    <td data-label="${t('account.deliveries.attempts')}">${d.attempts}</td>
    <td data-label="${t('account.deliveries.received')}">${shortDate(d.createdAt)}</td>
    <td data-label="">${d.status === 'failed' ? html`<button type="button" class="secondary" data-replay="${d.id}" data-slug="${plugin.slug}" aria-label="${t('account.deliveries.replayLabel', { tag: d.tag })}">${t('account.deliveries.replay')}</button>` : null}</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

/** The owner's deprecation form: message and replacement, and an undo while deprecated (src/web/browser/account.ts sends them). */
function deprecationForm(plugin: MyPlugin, t: Translate): SafeHtml {
  const id = (field: string) => `deprecate-${field}-${plugin.slug}`;
  const deprecated = plugin.deprecated;
  return html`<details class="deprecation-manage"${deprecated ? html` open` : null}>
  <summary>${t('account.deprecation.summary', { name: plugin.name })}</summary>
  <form class="deprecate-form" data-deprecate="${plugin.slug}">
    <p><label for="${id('message')}">${t('account.deprecation.message')}</label>
    <textarea id="${id('message')}" name="message" required maxlength="500" rows="2">${deprecated?.message ?? ''}</textarea></p>
    <p><label for="${id('replacement')}">${t('account.deprecation.replacement')}</label>
    <input id="${id('replacement')}" name="replacement" maxlength="64" pattern="[a-z](?:[a-z0-9]|-)*" value="${deprecated?.replacement ?? ''}"></p>
    <p><button type="submit">${deprecated ? t('account.deprecation.update') : t('account.deprecation.submit')}</button>
    ${deprecated ? html`<button type="button" class="secondary" data-undeprecate="${plugin.slug}">${t('account.deprecation.undo')}</button>` : null}</p>
  </form>
</details>`;
}

/** "My plugins": each owned plugin with its releases (to yank) and recent webhook deliveries (null when webhooks are off). */
export function pluginsSection(
  plugins: readonly MyPlugin[],
  deliveries: ReadonlyMap<string, Delivery[] | null>,
  releases: ReadonlyMap<string, ReleaseSummary[] | null>,
  t: Translate,
): SafeHtml {
  const items = plugins.map(
    (p) => html`<li class="account-plugin">
  <h3><a href="/plugins/${p.slug}">${p.name}</a> <span class="version">${p.latestVersion ?? t('account.plugins.unreleased')}</span>
  ${p.verified ? html`<span class="badge verified">${t('badge.verified')}</span>` : null}${p.featured ? html`<span class="badge featured">${t('badge.featured')}</span>` : null}${p.deprecated ? html`<span class="badge deprecated">${t('badge.deprecated')}</span>` : null}</h3>
  ${p.description ? html`<p>${p.description}</p>` : null}
  ${deprecationForm(p, t)}
  ${releasesManage(p.slug, p.name, releases.get(p.slug) ?? null, t)}
  ${deliveriesTable(p, deliveries.get(p.slug) ?? null, t)}
</li>`,
  );
  return html`<section class="account-plugins" aria-labelledby="plugins-title">
  <h2 id="plugins-title">${t('account.plugins.title')}</h2>
  ${plugins.length > 0 ? html`<ul class="account-plugin-list">${items}</ul>` : html`<p>${t('account.plugins.none')}</p>`}
  <p id="replay-status" class="status" role="status" aria-live="polite"></p>
  <p id="deprecation-status" class="status" role="status" aria-live="polite"></p>
  <p id="yank-status" class="status" role="status" aria-live="polite"></p>
</section>`;
}
