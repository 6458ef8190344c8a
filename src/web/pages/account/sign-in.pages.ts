import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { signInProviders } from './providers';

/** `/sign-in`: one button per forge instance with OAuth credentials. */
@Injectable()
export class SignInPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { t, me } = ctx;
    const [{ providers }, status] = await Promise.all([signInProviders(ctx), ctx.api.GET('/api/init/status')]);
    // A fresh install has nobody to sign in yet: its first admin comes from the wizard.
    const setup = status.data?.initialized === false ? html`<p><a class="button secondary" href="/setup">${t('account.signIn.setup')}</a></p>` : null;
    const already = me
      ? html`<p class="status" data-kind="ok">${t('account.signIn.already', { login: me.login })} <a href="/account">${t('account.signIn.toAccount')}</a></p>`
      : null;
    const buttons =
      providers.length > 0
        ? html`<ul class="provider-list">${providers.map((p) => html`<li><a class="button" href="${p.loginUrl}" data-forge="${p.type}">${t('account.signIn.with', { label: p.label })}</a></li>`)}</ul>`
        : html`<p>${t('account.signIn.none')}</p>`;
    const main = html`<section class="account-sign-in">
  <h1>${t('account.signIn.title')}</h1>
  ${already}
  <p>${t('account.signIn.intro')}</p>
  ${buttons}
  ${setup}
</section>`;
    return { title: t('account.signIn.title'), description: t('account.signIn.intro'), main };
  }
}
