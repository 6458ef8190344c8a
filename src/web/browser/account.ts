import type { components } from '../../client/registry-client';
import { api, problemMessage } from './lib/api';
import { announce, ready, t } from './lib/page';
import { byId, busy, code } from './lib/dom';
import { withStepUp } from './lib/step-up';

type TokenRow = components['schemas']['TokenRowDto'];

const DAY_MS = 24 * 60 * 60 * 1000;

function signOut(): void {
  const button = byId<HTMLButtonElement>('sign-out');
  button?.addEventListener('click', () => {
    void busy(button, async () => {
      const { error, response } = await api.POST('/api/auth/logout', {});
      if (response.ok) window.location.assign('/');
      else announce(byId('sign-out-status'), t('account.signOut.failed', { reason: problemMessage(error) }), 'error');
    });
  });
}

/** A cell, with its column's name (`data-label`) for the card a row becomes on a phone. */
function cell(row: HTMLTableRowElement, content: Node | string): void {
  const td = row.insertCell();
  const heading = row.closest('table')?.tHead?.rows[0]?.cells[td.cellIndex];
  td.dataset.label = heading?.textContent?.trim() ?? '';
  td.append(content);
}

/** The same cells the server renders (account-tokens.ts), for a token made on this page. */
function addTokenRow(token: TokenRow): void {
  const body = document.querySelector<HTMLTableSectionElement>('#token-table tbody');
  if (!body) return;
  const row = body.insertRow(0);
  row.dataset.tokenId = token.id;
  cell(row, token.name);
  cell(row, code(`${token.prefix}…`));
  const scopes = document.createDocumentFragment();
  for (const scope of token.scopes) scopes.append(code(scope), ' ');
  cell(row, scopes);
  const badge = document.createElement('span');
  badge.className = 'badge token-active';
  badge.textContent = t('account.tokens.status.active');
  cell(row, badge);
  cell(row, token.expiresAt === null ? t('account.tokens.never') : new Date(token.expiresAt).toISOString().slice(0, 10));
  cell(row, t('account.tokens.never'));
  const revoke = document.createElement('button');
  revoke.type = 'button';
  revoke.className = 'danger';
  revoke.dataset.revokeToken = token.id;
  revoke.dataset.tokenName = token.name;
  revoke.setAttribute('aria-label', t('account.tokens.revokeLabel', { name: token.name }));
  revoke.textContent = t('account.tokens.revoke');
  cell(row, revoke);
  byId('token-none')?.setAttribute('hidden', '');
  byId('token-list')?.removeAttribute('hidden');
}

function chosenScopes(form: HTMLFormElement): string[] {
  const checked = Array.from(form.querySelectorAll<HTMLInputElement>('input[name="scopes"]:checked')).map((box) => box.value);
  const more = (form.elements.namedItem('moreScopes') as HTMLInputElement | null)?.value.split(/[\s,]+/).filter(Boolean) ?? [];
  return [...new Set([...checked, ...more])];
}

function tokens(): void {
  const form = byId<HTMLFormElement>('token-form');
  const status = byId('token-status');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = (form.elements.namedItem('name') as HTMLInputElement).value.trim();
    const scopes = chosenScopes(form);
    const expiry = (form.elements.namedItem('expiry') as HTMLSelectElement).value;
    if (scopes.length === 0) return announce(status, t('account.tokens.noScope'), 'error');
    const expiresAt = expiry === 'never' ? null : Date.now() + Number(expiry) * DAY_MS;
    announce(status, t('status.working'), 'busy');
    void busy(form.querySelector('button[type="submit"]'), async () => {
      const { data, error } = await withStepUp(() => api.POST('/api/auth/me/tokens', { body: { name, scopes, expiresAt } }));
      if (!data) return announce(status, problemMessage(error), 'error');
      const plaintext = byId<HTMLInputElement>('token-plaintext');
      if (plaintext) plaintext.value = data.token;
      byId('token-created')?.removeAttribute('hidden');
      addTokenRow(data.row);
      form.reset();
      announce(status, t('account.tokens.created'), 'ok');
      plaintext?.focus();
      plaintext?.select();
    });
  });

  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-revoke-token]');
    if (!button) return;
    const id = button.dataset.revokeToken ?? '';
    if (!window.confirm(t('account.tokens.revokeConfirm', { name: button.dataset.tokenName ?? '' }))) return;
    void busy(button, async () => {
      const { error, response } = await api.DELETE('/api/auth/me/tokens/{id}', { params: { path: { id } } });
      if (!response.ok) return announce(status, problemMessage(error), 'error');
      button.closest('tr')?.remove();
      if (!document.querySelector('#token-table tbody tr')) {
        byId('token-none')?.removeAttribute('hidden');
        byId('token-list')?.setAttribute('hidden', '');
      }
      byId('token-created')?.setAttribute('hidden', '');
      announce(status, t('account.tokens.revoked'), 'ok');
    });
  });
}

function replays(): void {
  const status = byId('replay-status');
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-replay]');
    if (!button) return;
    const slug = button.dataset.slug ?? '';
    const id = button.dataset.replay ?? '';
    void busy(button, async () => {
      const { data, error } = await api.POST('/api/plugins/{slug}/deliveries/{id}/replay', { params: { path: { slug, id } } });
      if (!data) return announce(status, problemMessage(error), 'error');
      const badge = button.closest('tr')?.querySelector('[data-delivery-status]');
      if (badge) badge.textContent = data.status;
      button.remove();
      announce(status, t('account.deliveries.replayed'), 'ok');
    });
  });
}

/** The owner's deprecation forms on "My plugins": deprecate (or change it) and undo; the page reloads to show the result. */
function deprecations(): void {
  const status = byId('deprecation-status');
  const done = (message: string) => {
    announce(status, message, 'ok');
    window.location.reload();
  };
  document.addEventListener('submit', (event) => {
    const form = (event.target as Element | null)?.closest<HTMLFormElement>('form[data-deprecate]');
    if (!form) return;
    event.preventDefault();
    const slug = form.dataset.deprecate ?? '';
    const message = (form.elements.namedItem('message') as HTMLTextAreaElement).value;
    const replacement = (form.elements.namedItem('replacement') as HTMLInputElement).value.trim();
    void busy(form.querySelector('button[type="submit"]'), async () => {
      const { data, error } = await api.PUT('/api/plugins/{slug}/deprecation', {
        params: { path: { slug } },
        body: { message, replacement: replacement || null },
      });
      if (!data) return announce(status, refusal(error), 'error');
      done(t('account.deprecation.done'));
    });
  });
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-undeprecate]');
    if (!button) return;
    const slug = button.dataset.undeprecate ?? '';
    void busy(button, async () => {
      const { data, error } = await api.DELETE('/api/plugins/{slug}/deprecation', { params: { path: { slug } } });
      if (!data) return announce(status, refusal(error), 'error');
      done(t('account.deprecation.undone'));
    });
  });
}

/** The owner's yank forms and un-yank buttons under "My plugins"; the page reloads to show the result. */
function yanks(): void {
  const status = byId('yank-status');
  const send = async (slug: string, version: string, body: { reason?: string; undo?: boolean }, done: string) => {
    const { data, error } = await api.POST('/api/plugins/{slug}/yank', { params: { path: { slug } }, body: { version, ...body } });
    if (!data) return announce(status, refusal(error), 'error');
    announce(status, done, 'ok');
    window.location.reload();
  };
  document.addEventListener('submit', (event) => {
    const form = (event.target as Element | null)?.closest<HTMLFormElement>('form[data-yank]');
    if (!form) return;
    event.preventDefault();
    const version = form.dataset.version ?? '';
    const reason = (form.elements.namedItem('reason') as HTMLInputElement).value.trim();
    void busy(form.querySelector('button[type="submit"]'), () =>
      send(form.dataset.yank ?? '', version, reason ? { reason } : {}, t('account.releases.yankedDone', { version })),
    );
  });
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-unyank]');
    if (!button) return;
    const version = button.dataset.version ?? '';
    void busy(button, () => send(button.dataset.unyank ?? '', version, { undo: true }, t('account.releases.unyankedDone', { version })));
  });
}

/** A refusal in words: the fields' own messages when the problem lists them (they name the field). */
function refusal(error: unknown): string {
  const listed = ((error as { errors?: { message?: string }[] } | undefined)?.errors ?? []).map((e) => e.message).filter(Boolean);
  return listed.length > 0 ? listed.join('; ') : problemMessage(error);
}

function submitPlugin(): void {
  const form = byId<HTMLFormElement>('submit-form');
  const status = byId('submit-status');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const repoUrl = (form.elements.namedItem('repoUrl') as HTMLInputElement).value.trim();
    announce(status, t('status.working'), 'busy');
    byId('submit-result')?.setAttribute('hidden', '');
    void busy(form.querySelector('button[type="submit"]'), async () => {
      const { data, error } = await api.POST('/api/submit/oauth', { body: { repoUrl } });
      if (!data) return announce(status, t('account.submit.failed', { reason: refusal(error) }), 'error');
      announce(status, t('account.submit.done', { slug: data.slug }), 'ok');
      byId<HTMLAnchorElement>('submit-plugin-link')?.setAttribute('href', `/plugins/${encodeURIComponent(data.slug)}`);
      byId('submit-installed')?.toggleAttribute('hidden', !data.webhookInstalled);
      byId('submit-manual')?.toggleAttribute('hidden', data.webhookInstalled);
      if (!data.webhookInstalled) {
        byId<HTMLInputElement>('webhook-url')!.value = data.webhookUrl;
        byId<HTMLInputElement>('webhook-secret')!.value = data.webhookSecret;
      }
      byId('submit-result')?.removeAttribute('hidden');
    });
  });
}

ready(() => {
  signOut();
  tokens();
  replays();
  deprecations();
  yanks();
  submitPlugin();
});
