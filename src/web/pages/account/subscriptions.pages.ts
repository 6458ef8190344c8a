import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.types';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import type { WebContext } from '../../web-context';
import type { PageOutcome, RenderedPage } from '../../web-renderer';
import { WebRenderer } from '../../web-renderer';
import { shortDate } from './providers';

type Subscription = components['schemas']['SubscriptionDto'];
type Delivery = components['schemas']['SubscriptionDeliveryDto'];

const PUBLIC_EVENTS = [
  'release.published',
  'release.yanked',
  'release.unyanked',
  'plugin.created',
  'plugin.owners_changed',
  'plugin.deprecated',
  'plugin.undeprecated',
];
const ADMIN_EVENTS = ['webhook.delivery_failed', 'ingest.failed', 'key.rotated'];
/** How many deliveries of each subscription the page shows. */
const LOG_SIZE = 10;

/** The strings the page's script needs. */
export const SUBSCRIPTION_CLIENT_STRINGS = [
  'account.subscriptions.created',
  'account.subscriptions.noEvent',
  'account.subscriptions.deleteConfirm',
  'account.subscriptions.deleted',
  'account.subscriptions.pinged',
  'account.subscriptions.enabled',
  'account.subscriptions.replayed',
  'account.subscriptions.failed',
  'status.working',
  'action.copied',
] as const;

function deliveryLog(subscription: Subscription, deliveries: readonly Delivery[], t: Translate): SafeHtml {
  const label = t('account.subscriptions.log', { url: subscription.url });
  if (deliveries.length === 0) return html`<p>${t('account.subscriptions.log.none')}</p>`;
  return html`<div class="table-scroll" role="group" tabindex="0" aria-label="${label}">
  <table class="stack-table">
    <caption class="visually-hidden">${label}</caption>
    <thead><tr><th scope="col">${t('account.subscriptions.log.event')}</th><th scope="col">${t('account.subscriptions.log.status')}</th><th scope="col">${t('account.subscriptions.log.attempts')}</th><th scope="col">${t('account.subscriptions.log.response')}</th><th scope="col">${t('account.subscriptions.log.when')}</th><th scope="col"><span class="visually-hidden">${t('account.subscriptions.actions')}</span></th></tr></thead>
    <tbody>${deliveries.map(
      (d) => html`<tr>
      <td data-label="${t('account.subscriptions.log.event')}"><code>${d.type}</code>${d.slug ? html` ${d.slug}` : null}</td>
      <td data-label="${t('account.subscriptions.log.status')}"><span class="badge delivery-${d.status}">${d.status}</span></td>
      <td data-label="${t('account.subscriptions.log.attempts')}">${String(d.attempts)}</td>
      <td data-label="${t('account.subscriptions.log.response')}">${[d.responseStatus === null ? null : String(d.responseStatus), d.detail, d.durationMs === null ? null : `(${d.durationMs} ms)`].filter((part) => part !== null).join(' ')}</td>
      <td data-label="${t('account.subscriptions.log.when')}">${shortDate(d.createdAt)}</td>
      <td data-label=""><button type="button" class="secondary" data-replay-delivery="${d.id}" data-subscription="${subscription.id}" aria-label="${t('account.subscriptions.replayLabel', { type: d.type })}">${t('account.subscriptions.replay')}</button></td>
    </tr>`,
    )}</tbody>
  </table>
</div>`;
}

function subscriptionCard(subscription: Subscription, deliveries: readonly Delivery[], t: Translate): SafeHtml {
  const scope = t(`account.subscriptions.scope.${subscription.scope}`);
  const enable =
    subscription.status === 'disabled'
      ? html`<button type="button" data-enable-subscription="${subscription.id}" aria-label="${t('account.subscriptions.enableLabel', { url: subscription.url })}">${t('account.subscriptions.enable')}</button>`
      : null;
  return html`<article class="subscription" data-subscription-id="${subscription.id}" aria-label="${subscription.url}">
  <h3><code>${subscription.url}</code></h3>
  <p><span class="badge subscription-${subscription.status}">${t(`account.subscriptions.status.${subscription.status}`)}</span>
    ${subscription.description ?? ''} · ${scope}${subscription.target ? html` <code>${subscription.target}</code>` : null} ·
    ${subscription.events.map((e) => html`<code>${e}</code> `)}</p>
  ${subscription.disabledReason ? html`<p class="notice">${subscription.disabledReason}</p>` : null}
  <p class="actions">
    ${enable}
    <button type="button" class="secondary" data-ping-subscription="${subscription.id}" aria-label="${t('account.subscriptions.pingLabel', { url: subscription.url })}">${t('account.subscriptions.ping')}</button>
    <button type="button" class="danger" data-delete-subscription="${subscription.id}" data-url="${subscription.url}" aria-label="${t('account.subscriptions.deleteLabel', { url: subscription.url })}">${t('account.subscriptions.delete')}</button>
  </p>
  ${deliveryLog(subscription, deliveries, t)}
</article>`;
}

function createForm(admin: boolean, t: Translate): SafeHtml {
  const events = admin ? [...PUBLIC_EVENTS, ...ADMIN_EVENTS] : PUBLIC_EVENTS;
  const scopes = admin ? ['owned', 'plugin', 'kind', 'registry'] : ['owned', 'plugin', 'kind'];
  return html`<form id="subscription-form" class="token-form" novalidate>
  <div class="field">
    <label for="subscription-url">${t('account.subscriptions.url')}</label>
    <input id="subscription-url" name="url" type="url" required maxlength="2048" aria-describedby="subscription-url-hint" autocomplete="off" spellcheck="false">
    <small id="subscription-url-hint">${t('account.subscriptions.urlHint')}</small>
  </div>
  <div class="field">
    <label for="subscription-description">${t('account.subscriptions.description')}</label>
    <input id="subscription-description" name="description" maxlength="100">
  </div>
  <fieldset class="field">
    <legend>${t('account.subscriptions.events')}</legend>
    <ul class="scope-choices">${events.map((e, i) => html`<li><label class="check"><input type="checkbox" name="events" value="${e}"${i === 0 ? html` checked` : null}> <code>${e}</code></label></li>`)}</ul>
  </fieldset>
  <div class="field">
    <label for="subscription-scope">${t('account.subscriptions.scope')}</label>
    <select id="subscription-scope" name="scope">${scopes.map((s) => html`<option value="${s}">${t(`account.subscriptions.scope.${s}`)}</option>`)}</select>
  </div>
  <div class="field">
    <label for="subscription-target">${t('account.subscriptions.target')}</label>
    <input id="subscription-target" name="target" maxlength="64" aria-describedby="subscription-target-hint" autocomplete="off" spellcheck="false">
    <small id="subscription-target-hint">${t('account.subscriptions.targetHint')}</small>
  </div>
  <button type="submit">${t('account.subscriptions.create')}</button>
  <p id="subscription-status" class="status" role="status" aria-live="polite"></p>
</form>
<div id="subscription-created" class="token-created" hidden>
  <div class="field">
    <label for="subscription-secret">${t('account.subscriptions.secret')}</label>
    <div class="copy-row"><input id="subscription-secret" readonly spellcheck="false"><button type="button" class="secondary" data-copy="#subscription-secret">${t('action.copy')}</button></div>
  </div>
</div>`;
}

/** `/account/subscriptions`: the signed-in user's webhook subscriptions, their delivery logs, and the form to add one. */
@Injectable()
export class SubscriptionsPages {
  constructor(
    private readonly renderer: WebRenderer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  page(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { api, t, me } = ctx;
    if (!me) return { status: 401 };
    const list = (await api.GET('/api/account/subscriptions')).data?.subscriptions ?? [];
    const logs = await Promise.all(
      list.map(
        async (s) =>
          (await api.GET('/api/account/subscriptions/{id}/deliveries', { params: { path: { id: s.id }, query: { limit: LOG_SIZE } } })).data
            ?.deliveries ?? [],
      ),
    );
    const main = html`<h1>${t('account.subscriptions.title')}</h1>
<p>${t('account.subscriptions.intro', { days: this.config.subscriptionDisableAfterDays })}</p>
<section aria-labelledby="subscription-new">
  <h2 id="subscription-new">${t('account.subscriptions.create')}</h2>
  ${createForm(me.role === 'admin', t)}
</section>
<section id="subscription-list" aria-labelledby="subscription-list-title">
  <h2 id="subscription-list-title">${t('account.subscriptions.title')}</h2>
  <p id="subscription-action-status" class="status" role="status" aria-live="polite"></p>
  ${list.length === 0 ? html`<p>${t('account.subscriptions.none')}</p>` : list.map((s, i) => subscriptionCard(s, logs[i], t))}
</section>`;
    return { title: t('account.subscriptions.title'), main, scripts: ['subscriptions'], clientStrings: [...SUBSCRIPTION_CLIENT_STRINGS] };
  }
}
