import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html, type SafeHtml } from '../../html';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { forgeFields } from '../../components/forge-fields';
import { signInProviders } from './providers';
import { CREDENTIAL_CLIENT_STRINGS, passkeysSection, passwordSection } from './account-credentials';

const STEPS = 5;

/**
 * The FORGES entry to fill in for a first GitHub sign-in (the shape in
 * docs/decisions.md#forge-sign-in-sessions-and-the-install-wizard).
 */
function forgesExample(): string {
  return JSON.stringify(
    [
      {
        name: 'github',
        type: 'github',
        webUrl: 'https://github.com',
        apiUrl: 'https://api.github.com',
        clientId: '<client id>',
        clientSecret: '<client secret>',
      },
    ],
    null,
    2,
  );
}

/**
 * `/setup`, the install wizard, open only while no admin exists: the bootstrap token, the site
 * name (PUT /api/init/settings answers only before the admin exists, so it comes first), the
 * first admin (whose session becomes the browser's cookie), that admin's passkey or password
 * (through the account's own endpoints: the admin is a local account and could not sign in again
 * otherwise), then, optionally, a forge to sign in with, added through the admin API with that
 * session and live at once (or, alternatively, a FORGES entry).
 */
@Injectable()
export class SetupPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t } = ctx;
    const status = await ctx.api.GET('/api/init/status');
    if (status.data?.initialized !== false) return { redirect: '/' };
    const { providers, callbackUrlTemplate } = await signInProviders(ctx);
    const methods = await ctx.api.GET('/api/auth/sign-in/methods');
    // The admin made in step 3 is a local account with no password yet.
    const password = { available: true, enabled: methods.data?.password ?? false, set: false, updatedAt: null };
    // Section ids carry `-step-`: the inputs' own ids (`setup-token`, ...) must stay unique.
    const step = (n: number, name: string, title: string, content: SafeHtml) =>
      html`<section class="setup-step" id="setup-step-${name}" aria-labelledby="setup-step-${name}-title"${n > 1 ? html` hidden` : null}>
  <p class="meta">${t('account.setup.step', { n, total: STEPS })}</p>
  <h2 id="setup-step-${name}-title" tabindex="-1">${title}</h2>
  ${content}
</section>`;
    const template = callbackUrlTemplate ?? '';
    const main = html`<h1>${t('account.setup.title')}</h1>
<p id="setup-intro">${t('account.setup.intro')}</p>
${step(
  1,
  'token',
  t('account.setup.token.title'),
  html`<form id="setup-token-form" method="post" novalidate>
  <div class="field">
    <label for="setup-token">${t('account.setup.token.label')}</label>
    <input id="setup-token" name="token" type="password" required autocomplete="off" spellcheck="false" aria-describedby="setup-token-hint">
    <small id="setup-token-hint">${t('account.setup.token.hint')}</small>
  </div>
  <button type="submit">${t('account.setup.continue')}</button>
</form>`,
)}
${step(
  2,
  'site',
  t('account.setup.site.title'),
  html`<form id="setup-site-form" method="post" novalidate>
  <div class="field">
    <label for="setup-site-name">${t('account.setup.site.name')}</label>
    <input id="setup-site-name" name="siteName" maxlength="100" value="${ctx.branding.siteName}" aria-describedby="setup-site-hint">
  </div>
  <p class="meta" id="setup-site-hint">${t('account.setup.site.baseUrl')}</p>
  <button type="submit">${t('account.setup.continue')}</button>
</form>`,
)}
${step(
  3,
  'admin',
  t('account.setup.admin.title'),
  html`<form id="setup-admin-form" method="post" novalidate>
  <div class="field">
    <label for="setup-admin-login">${t('account.setup.admin.login')}</label>
    <input id="setup-admin-login" name="login" required maxlength="100" autocomplete="username" spellcheck="false">
  </div>
  <div class="field">
    <label for="setup-admin-email">${t('account.setup.admin.email')}</label>
    <input id="setup-admin-email" name="email" type="email" maxlength="254" autocomplete="email">
  </div>
  <button type="submit">${t('account.setup.admin.create')}</button>
</form>`,
)}
${step(
  4,
  'signin',
  t('account.setup.signin.title'),
  html`<p id="setup-done" class="status" data-kind="ok"></p>
  <p>${t('account.setup.signin.intro')}</p>
  ${passkeysSection([], t)}
  ${passwordSection(password, '', t)}
  <p class="meta">${t('account.setup.signin.link')}</p>
  <p><button type="button" id="setup-signin-continue">${t('account.setup.continue')}</button></p>`,
)}
${step(
  5,
  'forge',
  t('account.setup.forge.title'),
  html`<p>${t('account.setup.forge.intro')}</p>
  <p id="setup-forge-none"${providers.length > 0 ? html` hidden` : null}>${t('account.setup.forge.none')}</p>
  <div id="setup-forge-configured"${providers.length === 0 ? html` hidden` : null}>
    <p>${t('account.setup.forge.configured')}</p>
    <ul id="setup-forge-list">${providers.map((p) => html`<li><strong>${p.label}</strong> (${p.webUrl}) · ${t('account.setup.forge.callback')}: <code>${p.callbackUrl}</code></li>`)}</ul>
  </div>
  <form id="setup-forge-form" method="post" novalidate>
    ${forgeFields(t, 'setup-forge', template)}
    <button type="submit">${t('account.setup.forge.add')}</button>
  </form>
  <details class="setup-config">
    <summary>${t('account.setup.forge.config')}</summary>
    <p>${t('account.setup.forge.how')}</p>
    <pre id="setup-forges">FORGES='${forgesExample()}'</pre>
    <button type="button" class="secondary" data-copy="#setup-forges">${t('action.copy')}</button>
  </details>
  <p><button type="button" id="setup-finish">${providers.length > 0 ? t('account.setup.forge.finish') : t('account.setup.forge.skip')}</button></p>`,
)}
<section class="setup-step" id="setup-step-done" aria-labelledby="setup-step-done-title" hidden>
  <h2 id="setup-step-done-title" tabindex="-1">${t('account.setup.finished.title')}</h2>
  <p>${t('account.setup.finished.text')}</p>
  <p class="setup-links"><a class="button" href="/admin">${t('account.setup.toAdmin')}</a> <a class="button secondary" href="/plugins">${t('account.setup.toCatalogue')}</a></p>
</section>
<p id="setup-status" class="status" role="status" aria-live="polite"></p>`;
    return {
      title: t('account.setup.title'),
      main,
      scripts: ['setup', 'account-credentials'],
      clientStrings: [
        ...CREDENTIAL_CLIENT_STRINGS,
        'account.setup.done',
        'account.setup.introSignedIn',
        'account.setup.signin.needed',
        'account.setup.forge.finish',
        'account.setup.forge.added',
        'account.setup.forge.callback',
        'status.working',
        'action.copied',
        'nav.account',
        'nav.admin',
      ],
    };
  }
}
