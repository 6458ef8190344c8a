import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';

export type ReleaseSummary = components['schemas']['ReleaseSummaryDto'];

/**
 * The owner's releases of one plugin, each with a yank form (a reason shown beside the release)
 * or an un-yank button; src/web/browser/account.ts sends them to POST /api/plugins/{slug}/yank.
 */
export function releasesManage(slug: string, name: string, releases: readonly ReleaseSummary[] | null, t: Translate): SafeHtml | null {
  if (!releases || releases.length === 0) return null;
  const rows = releases.map((r) => {
    const id = `yank-reason-${slug}-${r.version}`;
    const state = r.yanked
      ? html`<span class="badge yanked">${t('account.releases.yanked')}</span>${r.yankReason ? html` <span class="yank-reason">${r.yankReason}</span>` : null}`
      : html`${t('account.releases.live')}`;
    const action = r.yanked
      ? html`<button type="button" class="secondary" data-unyank="${slug}" data-version="${r.version}" aria-label="${t('account.releases.unyankLabel', { version: r.version })}">${t('account.releases.unyank')}</button>`
      : html`<form class="yank-form" data-yank="${slug}" data-version="${r.version}">
        <label for="${id}">${t('account.releases.reasonLabel', { version: r.version })}</label>
        <input id="${id}" name="reason" maxlength="500">
        <button type="submit" class="danger" aria-label="${t('account.releases.yankLabel', { version: r.version })}">${t('account.releases.yank')}</button>
      </form>`;
    return html`<tr data-release="${r.version}">
    <th scope="row" data-label="${t('account.releases.version')}"><code>${r.version}</code></th>
    <td data-label="${t('account.releases.state')}" data-release-state>${state}</td>
    <td data-label="${t('account.releases.actions')}">${action}</td>
  </tr>`;
  });
  return html`<details class="releases-manage">
  <summary>${t('account.releases.summary', { name })}</summary>
  <div class="table-scroll" role="group" tabindex="0" aria-label="${t('account.releases.summary', { name })}"><table class="stack-table">
    <caption class="visually-hidden">${t('account.releases.summary', { name })}</caption>
    <thead><tr><th scope="col">${t('account.releases.version')}</th><th scope="col">${t('account.releases.state')}</th><th scope="col">${t('account.releases.actions')}</th></tr></thead>
    <tbody>${rows}</tbody>
  </table></div>
</details>`;
}
