import { html, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';

/** The forge families a person picks from, with the instance people usually mean by each. */
export const FORGE_CHOICES = [
  { type: 'github', label: 'GitHub', name: 'github', webUrl: 'https://github.com' },
  { type: 'gitlab', label: 'GitLab', name: 'gitlab', webUrl: 'https://gitlab.com' },
  { type: 'gitea', label: 'Gitea', name: 'gitea', webUrl: '' },
  { type: 'forgejo', label: 'Forgejo', name: 'codeberg', webUrl: 'https://codeberg.org' },
] as const;

/**
 * The inputs of "add a forge instance" (POST /api/admin/forges), for the install wizard and the
 * admin console: every input labelled, its id prefixed with `prefix`, names as the API's fields.
 * The callback URL follows the name as it is typed (account.ts / admin.ts fill it in).
 */
export function forgeFields(t: Translate, prefix: string, callbackTemplate: string): SafeHtml {
  const first = FORGE_CHOICES[0];
  const field = (id: string, label: string, control: SafeHtml, hint?: string) =>
    html`<div class="field"><label for="${prefix}-${id}">${label}</label>${control}${hint ? html`<small id="${prefix}-${id}-hint">${hint}</small>` : null}</div>`;
  const describedBy = (id: string) => `${prefix}-${id}-hint`;
  return html`${field(
    'type',
    t('account.forge.type'),
    html`<select id="${prefix}-type" name="type" data-forge-type>${FORGE_CHOICES.map((c) => html`<option value="${c.type}" data-name="${c.name}" data-web-url="${c.webUrl}">${c.label}</option>`)}</select>`,
  )}
${field('name', t('account.forge.name'), html`<input id="${prefix}-name" name="name" required maxlength="40" pattern="[a-z][a-z0-9\\-]{0,39}" autocomplete="off" spellcheck="false" value="${first.name}" data-forge-name aria-describedby="${describedBy('name')}">`, t('account.forge.name.hint'))}
${field('web-url', t('account.forge.webUrl'), html`<input id="${prefix}-web-url" name="webUrl" type="url" required maxlength="2048" inputmode="url" autocomplete="off" spellcheck="false" value="${first.webUrl}" data-forge-web-url aria-describedby="${describedBy('web-url')}">`, t('account.forge.webUrl.hint'))}
${field('api-url', t('account.forge.apiUrl'), html`<input id="${prefix}-api-url" name="apiUrl" type="url" maxlength="2048" inputmode="url" autocomplete="off" spellcheck="false" aria-describedby="${describedBy('api-url')}">`, t('account.forge.apiUrl.hint'))}
<div class="field"><label for="${prefix}-callback">${t('account.setup.forge.callback')}</label><div class="copy-row"><input id="${prefix}-callback" readonly value="${callbackTemplate.replace('{name}', first.name)}" data-forge-callback data-template="${callbackTemplate}"><button type="button" class="secondary" data-copy="#${prefix}-callback">${t('action.copy')}</button></div></div>
${field('client-id', t('account.forge.clientId'), html`<input id="${prefix}-client-id" name="clientId" required maxlength="255" autocomplete="off" spellcheck="false">`)}
${field('client-secret', t('account.forge.clientSecret'), html`<input id="${prefix}-client-secret" name="clientSecret" type="password" required maxlength="1024" autocomplete="off" spellcheck="false" aria-describedby="${describedBy('client-secret')}">`, t('account.forge.clientSecret.hint'))}`;
}
