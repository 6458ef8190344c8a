import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { shortDate } from './providers';

export type TokenListItem = components['schemas']['TokenListItemDto'];

/** The UI strings the token script needs to build rows like the server's. */
export const TOKEN_CLIENT_STRINGS = [
  'account.tokens.status.active',
  'account.tokens.status.expired',
  'account.tokens.status.revoked',
  'account.tokens.never',
  'account.tokens.revoke',
  'account.tokens.revokeLabel',
  'account.tokens.revokeConfirm',
  'account.tokens.revoked',
  'account.tokens.created',
  'account.tokens.noScope',
  'status.working',
  'action.copied',
] as const;

/** One row of the token table; the browser script builds the same cells for a new token. */
export function tokenRow(token: TokenListItem, t: Translate): SafeHtml {
  const revoke =
    token.status === 'active'
      ? html`<button type="button" class="danger" data-revoke-token="${token.id}" data-token-name="${token.name}" aria-label="${t('account.tokens.revokeLabel', { name: token.name })}">${t('account.tokens.revoke')}</button>`
      : null;
  return html`<tr data-token-id="${token.id}">
  <td data-label="${t('account.tokens.name')}">${token.name}</td>
  <td data-label="${t('account.tokens.prefix')}"><code>${token.prefix}…</code></td>
  <td data-label="${t('account.tokens.scopes')}">${token.scopes.map((s) => html`<code class="scope">${s}</code> `)}</td>
  <td data-label="${t('account.tokens.status')}"><span class="badge token-${token.status}">${t(`account.tokens.status.${token.status}`)}</span></td>
  <td data-label="${t('account.tokens.expires')}">${token.expiresAt === null ? t('account.tokens.never') : shortDate(token.expiresAt)}</td>
  <td data-label="${t('account.tokens.lastUsed')}">${token.lastUsedAt === null ? t('account.tokens.never') : shortDate(token.lastUsedAt)}</td>
  <td data-label="">${revoke}</td>
</tr>`;
}

/** The scope choices offered: the wildcard ones, and each owned plugin's own (src/lib/scopes grammar). */
function scopeChoices(slugs: readonly string[], t: Translate): SafeHtml {
  const choice = (value: string, label: string, checked = false) =>
    html`<li><label class="check"><input type="checkbox" name="scopes" value="${value}"${checked ? html` checked` : null}> ${label}</label></li>`;
  return html`<ul class="scope-choices">
  ${choice('publish:*', t('account.tokens.scope.publishAll'), slugs.length === 0)}
  ${choice('yank:*', t('account.tokens.scope.yankAll'))}
  ${slugs.map((slug) => html`${choice(`publish:${slug}`, t('account.tokens.scope.publishOne', { slug }), false)}${choice(`yank:${slug}`, t('account.tokens.scope.yankOne', { slug }))}`)}
</ul>`;
}

export type CiTemplate = components['schemas']['CiTemplateDto'];

/**
 * The publish workflow for each CI system, as the registry renders them for a publisher token
 * (GET /api/ci/templates?auth=token): its BASE_URL and the pinned SHA-256 of its CLI filled in.
 * The first is open; each has its own copy button.
 */
function ciSnippets(templates: readonly CiTemplate[] | null, t: Translate): SafeHtml {
  if (templates === null || templates.length === 0) return html`<p id="ci-snippets-none">${t('account.tokens.ciUnavailable')}</p>`;
  return html`<div class="ci-snippets">${templates.map(
    (template, index) => html`<details class="ci-snippet" data-forge="${template.forge}"${index === 0 ? html` open` : null}>
    <summary>${template.title} <code>${template.path}</code></summary>
    <pre id="ci-snippet-${template.forge}" tabindex="0" role="group" aria-label="${template.title}">${template.content}</pre>
    <button type="button" class="secondary" data-copy="#ci-snippet-${template.forge}">${t('account.tokens.copySnippet', { forge: template.title })}</button>
  </details>`,
  )}</div>`;
}

/** The publisher-token section: the create form, the once-only result, and the list (without revoked tokens). */
export function tokensSection(
  tokens: readonly TokenListItem[],
  slugs: readonly string[],
  t: Translate,
  ciTemplates: readonly CiTemplate[] | null,
): SafeHtml {
  // A revoked token is gone for good; active and expired ones are worth seeing.
  const shown = tokens.filter((token) => token.status !== 'revoked');
  return html`<section class="account-tokens" aria-labelledby="tokens-title">
  <h2 id="tokens-title">${t('account.tokens.title')}</h2>
  <p>${t('account.tokens.intro')}</p>
  <form id="token-form" class="token-form" novalidate>
    <div class="field">
      <label for="token-name">${t('account.tokens.name')}</label>
      <input id="token-name" name="name" required maxlength="100" aria-describedby="token-name-hint">
      <small id="token-name-hint">${t('account.tokens.nameHint')}</small>
    </div>
    <fieldset class="field">
      <legend>${t('account.tokens.scopes')}</legend>
      <small>${t('account.tokens.scopesHint')}</small>
      ${scopeChoices(slugs, t)}
      <label for="token-more-scopes">${t('account.tokens.moreScopes')}</label>
      <input id="token-more-scopes" name="moreScopes" aria-describedby="token-more-hint" autocomplete="off" spellcheck="false">
      <small id="token-more-hint">${t('account.tokens.moreScopesHint')}</small>
    </fieldset>
    <div class="field">
      <label for="token-expiry">${t('account.tokens.expiry')}</label>
      <select id="token-expiry" name="expiry">
        <option value="30">${t('account.tokens.expiry.30')}</option>
        <option value="90" selected>${t('account.tokens.expiry.90')}</option>
        <option value="365">${t('account.tokens.expiry.365')}</option>
        <option value="never">${t('account.tokens.expiry.never')}</option>
      </select>
    </div>
    <button type="submit">${t('account.tokens.create')}</button>
    <p id="token-status" class="status" role="status" aria-live="polite"></p>
  </form>
  <div id="token-created" class="token-created" hidden>
    <div class="field">
      <label for="token-plaintext">${t('account.tokens.plaintext')}</label>
      <div class="copy-row"><input id="token-plaintext" readonly spellcheck="false"><button type="button" class="secondary" data-copy="#token-plaintext">${t('action.copy')}</button></div>
    </div>
    <h3>${t('account.tokens.ci')}</h3>
    <p>${t('account.tokens.ciHint')}</p>
    ${ciSnippets(ciTemplates, t)}
  </div>
  <div class="table-scroll" id="token-list" role="group" tabindex="0" aria-label="${t('account.tokens.title')}"${shown.length === 0 ? html` hidden` : null}>
    <table id="token-table" class="stack-table">
      <caption class="visually-hidden">${t('account.tokens.title')}</caption>
      <thead><tr><th scope="col">${t('account.tokens.name')}</th><th scope="col">${t('account.tokens.prefix')}</th><th scope="col">${t('account.tokens.scopes')}</th><th scope="col">${t('account.tokens.status')}</th><th scope="col">${t('account.tokens.expires')}</th><th scope="col">${t('account.tokens.lastUsed')}</th><th scope="col"><span class="visually-hidden">${t('account.tokens.actions')}</span></th></tr></thead>
      <tbody>${shown.map((token) => tokenRow(token, t))}</tbody>
    </table>
  </div>
  <p id="token-none"${shown.length > 0 ? html` hidden` : null}>${t('account.tokens.none')}</p>
</section>`;
}
