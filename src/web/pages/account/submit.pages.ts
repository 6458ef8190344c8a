import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { type ProviderDto, signInProviders } from './providers';

/** `/submit`: a repository URL in, the claimed plugin (and the webhook secret when it must be set by hand) out. */
@Injectable()
export class SubmitPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, me } = ctx;
    if (ctx.features.submit === false) return { status: 404 };
    const { providers } = await signInProviders(ctx);
    if (providers.length === 0) return this.noForge(ctx);
    const hookLinks = (list: readonly ProviderDto[]) =>
      html`<ul class="provider-list">${list.map((p) => html`<li><a class="button secondary" href="${p.loginUrl}?access=hooks">${t('account.submit.withHooks', { label: p.label })}</a></li>`)}</ul>`;
    const body = me
      ? html`<form id="submit-form" novalidate>
  <div class="field">
    <label for="repo-url">${t('account.submit.repoUrl')}</label>
    <input id="repo-url" name="repoUrl" type="url" required maxlength="2048" inputmode="url" autocomplete="off" spellcheck="false" aria-describedby="repo-url-hint">
    <small id="repo-url-hint">${t('account.submit.repoUrlHint')}</small>
  </div>
  <button type="submit">${t('account.submit.send')}</button>
  <p id="submit-status" class="status" role="status" aria-live="polite"></p>
</form>
<div id="submit-result" class="submit-result" hidden>
  <p><a id="submit-plugin-link" href="/plugins">${t('account.submit.open')}</a></p>
  <p id="submit-installed" hidden>${t('account.submit.installed')}</p>
  <div id="submit-manual" hidden>
    <p>${t('account.submit.manual')}</p>
    <div class="field"><label for="webhook-url">${t('account.submit.webhookUrl')}</label><div class="copy-row"><input id="webhook-url" readonly><button type="button" class="secondary" data-copy="#webhook-url">${t('action.copy')}</button></div></div>
    <div class="field"><label for="webhook-secret">${t('account.submit.webhookSecret')}</label><div class="copy-row"><input id="webhook-secret" readonly spellcheck="false"><button type="button" class="secondary" data-copy="#webhook-secret">${t('action.copy')}</button></div></div>
    <p>${t('account.submit.steps')}</p>
  </div>
</div>
${providers.length > 0 ? html`<p>${t('account.submit.hooksHint')}</p>${hookLinks(providers)}` : null}`
      : html`<p>${t('account.submit.signInFirst')}</p>${hookLinks(providers)}`;
    const main = html`<section class="account-submit">
  <h1>${t('account.submit.title')}</h1>
  <p>${t('account.submit.intro')}</p>
  ${body}
</section>`;
    return {
      title: t('account.submit.title'),
      description: t('account.submit.intro'),
      main,
      scripts: ['account'],
      clientStrings: ['account.submit.failed', 'account.submit.done', 'status.working', 'action.copied'],
    };
  }

  /**
   * No forge with OAuth credentials: submitting cannot work (the forge must vouch for the
   * repository), so the page says why instead of showing a form, and where one gets added.
   */
  private async noForge(ctx: WebContext): Promise<PageOutcome> {
    const { t, me } = ctx;
    const status = await ctx.api.GET('/api/init/status');
    const next =
      status.data?.initialized === false
        ? html`<p>${t('account.submit.noForge.setup')}</p><p><a class="button" href="/setup">${t('account.signIn.setup')}</a></p>`
        : me?.role === 'admin'
          ? html`<p>${t('account.submit.noForge.admin')}</p><p><a class="button" href="/admin/settings#forges">${t('account.submit.noForge.addLink')}</a></p>`
          : html`<p>${t('account.submit.noForge.ask')}</p>`;
    const main = html`<section class="account-submit">
  <h1>${t('account.submit.title')}</h1>
  <div id="submit-no-forge">
    <p>${t('account.submit.noForge')}</p>
    ${next}
    <p>${t('account.submit.noForge.ci')}${me ? html` <a href="/account#tokens-title">${t('account.submit.noForge.tokens')}</a>` : null}</p>
  </div>
</section>`;
    return { title: t('account.submit.title'), description: t('account.submit.intro'), main };
  }
}
