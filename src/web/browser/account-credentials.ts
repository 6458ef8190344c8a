import { browserSupportsWebAuthn, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { components } from '../../client/registry-client';
import { api, problemMessage } from './lib/api';
import { announce, ready, t } from './lib/page';
import { byId } from './lib/dom';
import { withStepUp } from './lib/step-up';

type Passkey = components['schemas']['PasskeyDto'];

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The same item the server renders (account-credentials.ts on the server), for a passkey added here. */
function passkeyItem(passkey: Passkey): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'passkey';
  item.dataset.passkeyId = passkey.id;
  const name = document.createElement('strong');
  name.className = 'passkey-name';
  name.textContent = passkey.name;
  const facts = document.createElement('span');
  facts.className = 'passkey-facts';
  facts.textContent = `${t('account.passkeys.addedOn', { date: day(passkey.createdAt) })}, ${passkey.lastUsedAt === null ? t('account.passkeys.neverUsed') : t('account.passkeys.lastUsed', { date: day(passkey.lastUsedAt) })}`;
  const actions = document.createElement('span');
  actions.className = 'passkey-actions';
  for (const [action, label, aria, kind] of [
    ['rename', t('account.passkeys.rename'), t('account.passkeys.renameLabel', { name: passkey.name }), 'secondary'],
    ['remove', t('account.passkeys.remove'), t('account.passkeys.removeLabel', { name: passkey.name }), 'danger'],
  ] as const) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = kind;
    button.dataset[action === 'rename' ? 'renamePasskey' : 'removePasskey'] = passkey.id;
    button.dataset.passkeyName = passkey.name;
    button.setAttribute('aria-label', aria);
    button.textContent = label;
    actions.append(button);
  }
  item.append(name, ' ', facts, ' ', actions);
  return item;
}

function passkeys(): void {
  const form = byId<HTMLFormElement>('passkey-form');
  const status = byId('passkey-status');
  const list = byId<HTMLUListElement>('passkey-list');
  if (!form) return;
  if (!browserSupportsWebAuthn()) {
    form.querySelector('button')?.setAttribute('disabled', '');
    announce(status, t('account.passkeys.unsupported'), 'error');
    return;
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const name = (form.elements.namedItem('name') as HTMLInputElement).value.trim();
    if (button) button.disabled = true;
    announce(status, t('status.working'), 'busy');
    void (async () => {
      try {
        const started = await withStepUp(() => api.POST('/api/auth/me/passkeys/options', {}));
        if (!started.data) return announce(status, t('account.passkeys.failed', { reason: problemMessage(started.error) }), 'error');
        let answer;
        try {
          answer = await startRegistration({ optionsJSON: started.data.options as never });
        } catch (error) {
          const cancelled =
            error instanceof WebAuthnError
              ? error.name === 'NotAllowedError' || error.code === 'ERROR_CEREMONY_ABORTED'
              : (error as Error).name === 'NotAllowedError';
          return announce(
            status,
            cancelled ? t('account.passkeys.cancelled') : t('account.passkeys.failed', { reason: (error as Error).message }),
            'error',
          );
        }
        const added = await api.POST('/api/auth/me/passkeys', {
          body: { response: answer as unknown as Record<string, unknown>, ...(name ? { name } : {}) },
        });
        if (!added.data) return announce(status, t('account.passkeys.failed', { reason: problemMessage(added.error) }), 'error');
        list?.append(passkeyItem(added.data));
        list?.removeAttribute('hidden');
        byId('passkey-none')?.setAttribute('hidden', '');
        form.reset();
        announce(status, t('account.passkeys.added'), 'ok');
      } finally {
        if (button) button.disabled = false;
      }
    })();
  });

  list?.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const rename = target?.closest<HTMLButtonElement>('[data-rename-passkey]');
    const remove = target?.closest<HTMLButtonElement>('[data-remove-passkey]');
    const button = rename ?? remove;
    if (!button) return;
    const id = button.dataset.renamePasskey ?? button.dataset.removePasskey ?? '';
    const current = button.dataset.passkeyName ?? '';
    void (async () => {
      if (rename) {
        const name = window.prompt(t('account.passkeys.renamePrompt', { name: current }), current)?.trim();
        if (!name || name === current) return;
        const { data, error } = await api.PATCH('/api/auth/me/passkeys/{id}', { params: { path: { id } }, body: { name } });
        if (!data) return announce(status, t('account.passkeys.failed', { reason: problemMessage(error) }), 'error');
        button.closest('li')?.replaceWith(passkeyItem(data));
        return announce(status, t('account.passkeys.renamed'), 'ok');
      }
      if (!window.confirm(t('account.passkeys.removeConfirm', { name: current }))) return;
      const { error, response } = await withStepUp(() => api.DELETE('/api/auth/me/passkeys/{id}', { params: { path: { id } } }));
      if (!response.ok) return announce(status, t('account.passkeys.failed', { reason: problemMessage(error) }), 'error');
      button.closest('li')?.remove();
      if (!list.querySelector('li')) {
        list.setAttribute('hidden', '');
        byId('passkey-none')?.removeAttribute('hidden');
      }
      announce(status, t('account.passkeys.removed'), 'ok');
    })();
  });
}

function password(): void {
  const form = byId<HTMLFormElement>('password-form');
  const status = byId('password-status');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const first = (form.elements.namedItem('password') as HTMLInputElement).value;
    const again = (form.elements.namedItem('confirm') as HTMLInputElement).value;
    if (first !== again) return announce(status, t('account.password.mismatch'), 'error');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button) button.disabled = true;
    announce(status, t('status.working'), 'busy');
    void (async () => {
      try {
        const current = (form.elements.namedItem('currentPassword') as HTMLInputElement | null)?.value;
        const { data, error } = await withStepUp(() =>
          api.PUT('/api/auth/me/password', { body: { password: first, ...(current ? { currentPassword: current } : {}) } }),
        );
        if (!data) return announce(status, t('account.passkeys.failed', { reason: problemMessage(error) }), 'error');
        form.reset();
        const state = byId('password-state');
        if (state && data.updatedAt !== null) state.textContent = t('account.password.isSet', { date: day(data.updatedAt) });
        announce(status, t('account.password.saved'), 'ok');
      } finally {
        if (button) button.disabled = false;
      }
    })();
  });
}

ready(() => {
  passkeys();
  password();
});
