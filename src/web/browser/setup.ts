import { api, problemMessage } from './lib/api';
import { forgeBody, forgeForm } from './lib/forge-form';
import { announce, ready, t } from './lib/page';
import { byId, busy, code } from './lib/dom';

/** Shows one wizard step and moves the focus to its heading. */
function showStep(id: string): void {
  for (const step of Array.from(document.querySelectorAll<HTMLElement>('.setup-step'))) step.hidden = step.id !== id;
  byId(`${id}-title`)?.focus();
}

function setupWizard(): void {
  const status = byId('setup-status');
  // The bootstrap token stays in this page's memory only; it is useless once the admin exists.
  let bootstrap = '';
  const authorization = () => ({ Authorization: `Bearer ${bootstrap}` });
  const step = (formId: string, run: (form: HTMLFormElement) => Promise<string | null>) => {
    const form = byId<HTMLFormElement>(formId);
    form?.addEventListener('submit', (event) => {
      event.preventDefault();
      announce(status, t('status.working'), 'busy');
      void busy(form.querySelector('button[type="submit"]'), async () => {
        const failure = await run(form);
        if (failure) announce(status, failure, 'error');
      });
    });
  };
  /** PUT /api/init/settings with the token; on success the wizard moves on to `next`. */
  const saveSettings = async (body: { siteName?: string }, next: string) => {
    const { error, response } = await api.PUT('/api/init/settings', { body, headers: authorization() });
    if (!response.ok) return problemMessage(error);
    announce(status, '', 'ok');
    showStep(next);
    return null;
  };
  step('setup-token-form', (form) => {
    bootstrap = (form.elements.namedItem('token') as HTMLInputElement).value.trim();
    // An empty settings change checks the token without changing anything.
    return saveSettings({}, 'setup-step-site');
  });
  step('setup-site-form', (form) => {
    const siteName = (form.elements.namedItem('siteName') as HTMLInputElement).value.trim();
    return saveSettings(siteName ? { siteName } : {}, 'setup-step-admin');
  });
  step('setup-admin-form', async (form) => {
    const login = (form.elements.namedItem('login') as HTMLInputElement).value.trim();
    const email = (form.elements.namedItem('email') as HTMLInputElement).value.trim();
    const { data, error } = await api.POST('/api/init/admin', { body: { login, ...(email ? { email } : {}) }, headers: authorization() });
    if (!data) return problemMessage(error);
    bootstrap = '';
    announce(status, '', 'ok');
    const done = byId('setup-done');
    if (done) done.textContent = t('account.setup.done', { login: data.user.login });
    const intro = byId('setup-intro');
    if (intro) intro.textContent = t('account.setup.introSignedIn');
    // The password form's hidden login, so a password manager files the new password under it.
    const username = byId<HTMLFormElement>('password-form')?.elements.namedItem('username');
    if (username instanceof HTMLInputElement) username.value = data.user.login;
    signedInHeader();
    showStep('setup-step-signin');
    return null;
  });
  // The passkey and password forms are the account page's (account-credentials.ts, the normal
  // endpoints); the wizard goes on once the account holds one or the other.
  const onward = byId<HTMLButtonElement>('setup-signin-continue');
  onward?.addEventListener('click', () => {
    announce(status, t('status.working'), 'busy');
    void busy(onward, async () => {
      const [keys, password] = await Promise.all([api.GET('/api/auth/me/passkeys'), api.GET('/api/auth/me/password')]);
      if (!keys.data || !password.data) return announce(status, problemMessage(keys.error ?? password.error), 'error');
      if (keys.data.passkeys.length === 0 && !password.data.set) return announce(status, t('account.setup.signin.needed'), 'error');
      announce(status, '', 'ok');
      showStep('setup-step-forge');
    });
  });
  const finish = byId<HTMLButtonElement>('setup-finish');
  finish?.addEventListener('click', () => {
    announce(status, '', 'ok');
    showStep('setup-step-done');
  });
  const forge = byId<HTMLFormElement>('setup-forge-form');
  if (forge) forgeForm(forge);
  // The admin exists now: the forge goes through the admin API with the session the wizard set.
  step('setup-forge-form', async (form) => {
    const { data, error } = await api.POST('/api/admin/forges', { body: forgeBody(form) });
    if (!data) return problemMessage(error);
    (form.elements.namedItem('clientSecret') as HTMLInputElement).value = '';
    const item = document.createElement('li');
    const strong = document.createElement('strong');
    strong.textContent = data.name;
    item.append(strong, ` (${data.webUrl}) · ${t('account.setup.forge.callback')}: `, code(data.callbackUrl));
    byId('setup-forge-list')?.append(item);
    byId('setup-forge-configured')?.removeAttribute('hidden');
    byId('setup-forge-none')?.setAttribute('hidden', '');
    announce(status, t('account.setup.forge.added', { name: data.name }), 'ok');
    if (finish) finish.textContent = t('account.setup.forge.finish');
    return null;
  });
}

/** The header as the next page will draw it: the new admin is signed in (the API set the cookie). */
function signedInHeader(): void {
  const signIn = document.querySelector<HTMLAnchorElement>('.site-header a[href="/sign-in"]');
  if (!signIn) return;
  signIn.href = '/account';
  signIn.textContent = t('nav.account');
  const admin = document.createElement('li');
  const link = document.createElement('a');
  link.href = '/admin';
  link.textContent = t('nav.admin');
  admin.append(link);
  signIn.closest('li')?.after(admin);
}

ready(() => {
  setupWizard();
});
