import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DEFAULT_NEXT, safeNext } from '../../../lib/net/safe-next';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { type ProviderDto, signInProviders } from './providers';

/** What /sign-in?error= may say (the no-script password form comes back with one). */
const FORM_ERRORS = new Set(['sign-in-failed', 'rate-limited', 'password-sign-in-off', 'password-hashing-busy']);
/** What /sign-in/link?error= may say, and its status. */
const LINK_ERRORS: Readonly<Record<string, 404 | 410>> = { used: 410, expired: 410, unknown: 404 };
const LINK_COMMAND = 'registry users sign-in-link <login>';

function passkeySection(t: Translate): SafeHtml {
  return html`<section class="sign-in-method" aria-labelledby="passkey-title">
  <h2 id="passkey-title">${t('signIn.passkey.title')}</h2>
  <p>${t('signIn.passkey.intro')}</p>
  <button type="button" id="passkey-sign-in" hidden>${t('signIn.passkey.button')}</button>
  <noscript><p>${t('signIn.passkey.noScript')}</p></noscript>
  <p id="passkey-status" class="status" role="status" aria-live="polite"></p>
</section>`;
}

function passwordSection(t: Translate, error: string | null, next: string | null): SafeHtml {
  const failure = error
    ? html`<p id="password-error" class="status" data-kind="error" role="alert">${t(`signIn.error.${error}`)}</p>`
    : null;
  return html`<section class="sign-in-method" aria-labelledby="password-title">
  <h2 id="password-title">${t('signIn.password.title')}</h2>
  ${failure}
  <form id="password-form" method="post" action="/api/auth/sign-in/password">
    <div class="field">
      <label for="sign-in-login">${t('signIn.password.login')}</label>
      <input id="sign-in-login" name="login" required maxlength="100" autocomplete="username" autocapitalize="none" spellcheck="false"${error ? html` aria-describedby="password-error"` : null}>
    </div>
    <div class="field">
      <label for="sign-in-password">${t('signIn.password.password')}</label>
      <input id="sign-in-password" name="password" type="password" required maxlength="256" autocomplete="current-password">
    </div>
    ${next ? html`<input type="hidden" name="next" value="${next}">` : null}
    <button type="submit">${t('signIn.password.submit')}</button>
  </form>
</section>`;
}

function forgeSection(t: Translate, providers: readonly ProviderDto[]): SafeHtml | null {
  if (providers.length === 0) return null;
  return html`<section class="sign-in-method" aria-labelledby="forges-title">
  <h2 id="forges-title">${t('signIn.forges.title')}</h2>
  <ul class="provider-list">${providers.map((p) => html`<li><a class="button" href="${p.loginUrl}" data-forge="${p.type}">${t('account.signIn.with', { label: p.label })}</a></li>`)}</ul>
</section>`;
}

function helpSection(t: Translate): SafeHtml {
  return html`<section class="sign-in-help" aria-labelledby="help-title">
  <h2 id="help-title">${t('signIn.help.title')}</h2>
  <p>${t('signIn.help.text')}</p>
  <pre><code>${LINK_COMMAND}</code></pre>
</section>`;
}

/** `/sign-in`: a passkey, a password (when the operator allows them), the forge buttons, and how to get a sign-in link. */
@Injectable()
export class SignInPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  /**
   * `GET /auth/link?token=`: the link an operator printed. Following it signs nobody in (link
   * scanners and chat unfurlers fetch links too); it asks to continue, and the button posts the
   * token to `POST /auth/link`, which uses the link up. The page says nothing of whether the token is good.
   */
  linkConfirm(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, async (ctx) => {
      const { t } = ctx;
      const token = typeof ctx.request.query.token === 'string' && ctx.request.query.token.length <= 200 ? ctx.request.query.token : '';
      const main = html`<section class="account-sign-in">
  <h1>${t('signIn.link.title')}</h1>
  <p>${t('signIn.link.confirm')}</p>
  <form id="link-form" method="post" action="/auth/link">
    <input type="hidden" name="token" value="${token}">
    <button type="submit">${t('signIn.link.continue')}</button>
  </form>
  <p><a class="button secondary" href="/sign-in">${t('signIn.link.toSignIn')}</a></p>
</section>`;
      return { title: t('signIn.link.title'), main };
    });
  }

  /** `/sign-in/link?error=`: where a refused sign-in link lands, saying why and what to do. */
  linkRefused(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, async (ctx) => {
      const reason =
        typeof ctx.request.query.error === 'string' && ctx.request.query.error in LINK_ERRORS ? ctx.request.query.error : 'unknown';
      const { t } = ctx;
      const main = html`<section class="problem">
  <h1>${t('signIn.link.title')}</h1>
  <p>${t(`signIn.link.${reason}`)}</p>
  <p>${t('signIn.link.again')}</p>
  <pre><code>${LINK_COMMAND}</code></pre>
  <p><a class="button secondary" href="/sign-in">${t('signIn.link.toSignIn')}</a></p>
</section>`;
      return { title: t('signIn.link.title'), main, httpStatus: LINK_ERRORS[reason] };
    });
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, me } = ctx;
    const query = ctx.request.query;
    const [{ providers }, status, methods] = await Promise.all([
      signInProviders(ctx),
      ctx.api.GET('/api/init/status'),
      ctx.api.GET('/api/auth/sign-in/methods'),
    ]);
    // A fresh install has nobody to sign in yet: its first admin comes from the wizard.
    const setup =
      status.data?.initialized === false ? html`<p><a class="button secondary" href="/setup">${t('account.signIn.setup')}</a></p>` : null;
    const already = me
      ? html`<p class="status" data-kind="ok">${t('account.signIn.already', { login: me.login })} <a href="/account">${t('account.signIn.toAccount')}</a></p>`
      : null;
    const error = typeof query.error === 'string' && FORM_ERRORS.has(query.error) ? query.error : null;
    const asked = safeNext(query.next);
    const next = asked === DEFAULT_NEXT ? null : asked;
    const main = html`<section class="account-sign-in">
  <h1>${t('account.signIn.title')}</h1>
  ${already}
  <p>${t(providers.length > 0 ? 'signIn.intro' : 'signIn.introLocal')}</p>
  <div class="sign-in-methods">
  ${passkeySection(t)}
  ${methods.data?.password !== false ? passwordSection(t, error, next) : null}
  ${forgeSection(t, providers)}
  </div>
  ${helpSection(t)}
  ${setup}
</section>`;
    return {
      title: t('account.signIn.title'),
      description: t('signIn.intro'),
      main,
      scripts: ['sign-in'],
      clientStrings: ['signIn.passkey.failed', 'signIn.passkey.cancelled', 'signIn.passkey.unsupported', 'status.working'],
      clientData: { next: asked },
    };
  }
}
