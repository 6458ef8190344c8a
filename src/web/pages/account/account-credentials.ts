import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { shortDate } from './providers';

export type Passkey = components['schemas']['PasskeyDto'];
export type PasswordStatus = components['schemas']['PasswordStatusDto'];

/** The UI strings the passkey and password script needs. */
export const CREDENTIAL_CLIENT_STRINGS = [
  'account.passkeys.added',
  'account.passkeys.addedOn',
  'account.passkeys.lastUsed',
  'account.passkeys.neverUsed',
  'account.passkeys.rename',
  'account.passkeys.renameLabel',
  'account.passkeys.renamePrompt',
  'account.passkeys.renamed',
  'account.passkeys.remove',
  'account.passkeys.removeLabel',
  'account.passkeys.removeConfirm',
  'account.passkeys.removed',
  'account.passkeys.failed',
  'account.passkeys.cancelled',
  'account.passkeys.unsupported',
  'account.password.isSet',
  'account.password.saved',
  'account.password.mismatch',
  'status.working',
] as const;

/** One passkey; the browser script builds the same item for a passkey added on the page. */
function passkeyItem(passkey: Passkey, t: Translate): SafeHtml {
  const used =
    passkey.lastUsedAt === null ? t('account.passkeys.neverUsed') : t('account.passkeys.lastUsed', { date: shortDate(passkey.lastUsedAt) });
  return html`<li class="passkey" data-passkey-id="${passkey.id}">
  <strong class="passkey-name">${passkey.name}</strong> <span class="passkey-facts">${t('account.passkeys.addedOn', { date: shortDate(passkey.createdAt) })}, ${used}</span>
  <span class="passkey-actions"><button type="button" class="secondary" data-rename-passkey="${passkey.id}" data-passkey-name="${passkey.name}" aria-label="${t('account.passkeys.renameLabel', { name: passkey.name })}">${t('account.passkeys.rename')}</button> <button type="button" class="danger" data-remove-passkey="${passkey.id}" data-passkey-name="${passkey.name}" aria-label="${t('account.passkeys.removeLabel', { name: passkey.name })}">${t('account.passkeys.remove')}</button></span>
</li>`;
}

/** The account's passkeys: the list, and the form that adds one (through the browser's passkey prompt). */
export function passkeysSection(passkeys: readonly Passkey[], t: Translate): SafeHtml {
  return html`<section class="account-passkeys" aria-labelledby="passkeys-title">
  <h2 id="passkeys-title">${t('account.passkeys.title')}</h2>
  <p>${t('account.passkeys.intro')}</p>
  <ul id="passkey-list" class="passkey-list"${passkeys.length === 0 ? html` hidden` : null}>${passkeys.map((p) => passkeyItem(p, t))}</ul>
  <p id="passkey-none"${passkeys.length > 0 ? html` hidden` : null}>${t('account.passkeys.none')}</p>
  <form id="passkey-form" class="passkey-form" novalidate>
    <div class="field">
      <label for="passkey-name">${t('account.passkeys.name')}</label>
      <input id="passkey-name" name="name" maxlength="100" autocomplete="off" aria-describedby="passkey-name-hint">
      <small id="passkey-name-hint">${t('account.passkeys.nameHint')}</small>
    </div>
    <button type="submit">${t('account.passkeys.add')}</button>
  </form>
  <p id="passkey-status" class="status" role="status" aria-live="polite"></p>
</section>`;
}

/** A local account's password (when passwords are on here): set or change it. */
export function passwordSection(status: PasswordStatus | undefined, login: string, t: Translate): SafeHtml | null {
  if (!status?.available) return null;
  if (!status.enabled) {
    return html`<section class="account-password" aria-labelledby="password-title"><h2 id="password-title">${t('account.password.title')}</h2><p>${t('account.password.off')}</p></section>`;
  }
  const state =
    status.set && status.updatedAt !== null
      ? t('account.password.isSet', { date: shortDate(status.updatedAt) })
      : t('account.password.notSet');
  return html`<section class="account-password" aria-labelledby="password-title">
  <h2 id="password-title">${t('account.password.title')}</h2>
  <p>${t('account.password.intro')}</p>
  <p id="password-state">${state}</p>
  <form id="password-form" class="password-form" method="post" action="/account" novalidate>
    <input type="text" name="username" value="${login}" autocomplete="username" hidden>
    ${
      status.set
        ? html`<div class="field">
      <label for="current-password">${t('account.password.current')}</label>
      <input id="current-password" name="currentPassword" type="password" maxlength="256" autocomplete="current-password" aria-describedby="current-password-hint">
      <small id="current-password-hint">${t('account.password.currentHint')}</small>
    </div>`
        : null
    }
    <div class="field">
      <label for="new-password">${t('account.password.new')}</label>
      <input id="new-password" name="password" type="password" required minlength="10" maxlength="256" autocomplete="new-password" aria-describedby="new-password-hint">
      <small id="new-password-hint">${t('account.password.hint')}</small>
    </div>
    <div class="field">
      <label for="confirm-password">${t('account.password.confirm')}</label>
      <input id="confirm-password" name="confirm" type="password" required minlength="10" maxlength="256" autocomplete="new-password">
    </div>
    <button type="submit">${t('account.password.save')}</button>
    <p id="password-status" class="status" role="status" aria-live="polite"></p>
  </form>
</section>`;
}
