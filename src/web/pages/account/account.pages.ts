import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { html } from '../../html';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { CREDENTIAL_CLIENT_STRINGS, passkeysSection, passwordSection } from './account-credentials';
import { type Delivery, pluginsSection } from './account-plugins';
import { TOKEN_CLIENT_STRINGS, tokensSection } from './account-tokens';

/** `/account`: who you are, your plugins and their deliveries, your publisher tokens, sign-out. */
@Injectable()
export class AccountPages {
  constructor(private readonly renderer: WebRenderer) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { api, t, me } = ctx;
    if (!me) return { status: 401 };
    const [plugins, tokens, passkeys, password, subscriptions, ci] = await Promise.all([
      api.GET('/api/auth/me/plugins'),
      api.GET('/api/auth/me/tokens'),
      api.GET('/api/auth/me/passkeys'),
      api.GET('/api/auth/me/password'),
      api.GET('/api/account/subscriptions'),
      api.GET('/api/ci/templates', { params: { query: { auth: 'token' } } }),
    ]);
    const disabled = (subscriptions.data?.subscriptions ?? []).filter((s) => s.status === 'disabled').length;
    // A subscription disabled after days of failures is said here, where its owner looks.
    const notice =
      disabled > 0
        ? html`<p class="notice" id="subscriptions-disabled" role="status">${t.count('account.subscriptions.disabledNotice', disabled)} <a href="/account/subscriptions">${t('account.subscriptions.link')}</a></p>`
        : null;
    const owned = plugins.data?.plugins ?? [];
    const deliveries = new Map<string, Delivery[] | null>(
      await Promise.all(
        owned.map(async (p) => {
          if (ctx.features.webhooks === false) return [p.slug, null] as const;
          const answer = await api.GET('/api/plugins/{slug}/deliveries', { params: { path: { slug: p.slug } } });
          return [p.slug, answer.data?.deliveries ?? null] as const;
        }),
      ),
    );
    const releases = new Map(
      await Promise.all(
        owned.map(async (p) => {
          const answer = await api.GET('/api/plugins/{slug}', { params: { path: { slug: p.slug } } });
          return [p.slug, answer.data?.releases ?? null] as const;
        }),
      ),
    );
    const avatar = me.avatarUrl ? html`<img class="avatar" src="${me.avatarUrl}" alt="" width="64" height="64">` : null;
    const main = html`<h1>${t('account.title')}</h1>
${notice}
<section class="account-user" aria-label="${me.login}">
  ${avatar}
  <dl>
    <dt>${t('account.setup.admin.login')}</dt><dd><strong>${me.login}</strong></dd>
    <dt>${t('account.role')}</dt><dd><span class="badge">${t(`account.role.${me.role}`)}</span></dd>
    <dt>${t('account.via')}</dt><dd>${me.instance}</dd>
  </dl>
  <div>
    <button type="button" class="secondary" id="sign-out">${t('account.signOut')}</button>
    <p id="sign-out-status" class="status" role="status" aria-live="polite"></p>
  </div>
</section>
${passkeysSection(passkeys.data?.passkeys ?? [], t)}
${passwordSection(password.data, me.login, t)}
${pluginsSection(owned, deliveries, releases, t)}
${tokensSection(
  tokens.data?.tokens ?? [],
  owned.map((p) => p.slug),
  t,
  ci.data?.templates ?? null,
)}
<section aria-labelledby="subscriptions-title"><h2 id="subscriptions-title">${t('account.subscriptions.title')}</h2><p><a href="/account/subscriptions">${t('account.subscriptions.link')}</a></p></section>`;
    return {
      title: t('account.title'),
      main,
      scripts: ['account', 'account-credentials'],
      clientStrings: [
        ...TOKEN_CLIENT_STRINGS,
        ...CREDENTIAL_CLIENT_STRINGS,
        'account.signOut.failed',
        'account.deliveries.replayed',
        'account.deprecation.done',
        'account.deprecation.undone',
        'account.releases.yankedDone',
        'account.releases.unyankedDone',
      ],
    };
  }
}
