import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { kindLabels, type KindLabels } from '../../components/plugin-card';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { pluralKeys } from '../../i18n/plural';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { CATALOGUE_SCRIPTS, failed, missing, pageNumber, pagination, pageUrl, SUGGEST_CLIENT_STRINGS } from './catalogue-parts';

type RequestDto = components['schemas']['RequestDto'];

const PAGE_SIZE = 20;
/** The strings browser/catalogue.ts shows after a vote or a new request. */
export const WISHLIST_CLIENT_STRINGS = [
  ...SUGGEST_CLIENT_STRINGS,
  ...pluralKeys('wishlist.votes'),
  'wishlist.upvote',
  'wishlist.voted',
  'wishlist.created',
  'wishlist.failed',
  'wishlist.status.open',
  'status.working',
];

function requestItem(request: RequestDto, signedIn: boolean, t: Translate, kinds: KindLabels): SafeHtml {
  const votes = html`<span class="votes" id="votes-${request.id}">${t.count('wishlist.votes', request.votes)}</span>`;
  const vote =
    signedIn && request.status === 'open'
      ? html`<button type="button" class="secondary vote" data-upvote="${request.id}" aria-pressed="${request.voted ? 'true' : 'false'}" aria-label="${t('wishlist.upvoteLabel', { title: request.title })}" aria-describedby="votes-${request.id}">${request.voted ? t('wishlist.voted') : t('wishlist.upvote')}</button>`
      : null;
  return html`<li class="wish" id="request-${request.id}">
  <div class="wish-votes">${votes}${vote}</div>
  <div class="wish-body">
    <h3>${request.title}</h3>
    ${request.description ? html`<p>${request.description}</p>` : null}
    <p class="meta"><span class="badge">${t(`wishlist.status.${request.status}`)}</span>${request.kind ? html` <a href="/kinds/${request.kind}">${kinds.get(request.kind) ?? request.kind}</a>` : null}${request.plugin ? html` · ${t('wishlist.fulfilledBy')} <a href="/plugins/${request.plugin}">${request.plugin}</a>` : null}</p>
  </div>
</li>`;
}

function createForm(kinds: readonly { key: string; label: string }[], t: Translate): SafeHtml {
  const error = (name: string) => html`<p class="field-error" id="request-${name}-error" data-error-for="${name}"></p>`;
  return html`<section aria-labelledby="new-request-heading">
<h2 id="new-request-heading">${t('wishlist.new')}</h2>
<noscript><p>${t('wishlist.needsScript')}</p></noscript>
<form id="request-form" class="request-form" hidden novalidate>
  <div class="field"><label for="request-title">${t('wishlist.field.title')}</label><input id="request-title" name="title" required maxlength="200" aria-describedby="request-title-error">${error('title')}</div>
  <div class="field"><label for="request-description">${t('wishlist.field.description')}</label><textarea id="request-description" name="description" rows="3" maxlength="2000" aria-describedby="request-description-error"></textarea>${error('description')}</div>
  <div class="field"><label for="request-kind">${t('wishlist.field.kind')}</label><select id="request-kind" name="kind" aria-describedby="request-kind-error"><option value="">—</option>${kinds.map((k) => html`<option value="${k.key}">${k.label}</option>`)}</select>${error('kind')}</div>
  <p><button type="submit">${t('wishlist.submit')}</button></p>
  <p class="status" id="request-status" role="status" aria-live="polite"></p>
</form>
</section>`;
}

/** `/wishlist`: the requests, most votes first; voting and asking for more need a session (and script). */
@Injectable()
export class WishlistPages {
  constructor(private readonly renderer: WebRenderer) {}

  wishlist(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { api, t, me } = ctx;
    if (ctx.features.requests === false) return { status: 404 };
    const page = pageNumber(ctx.request.query.page);
    const [list, kinds] = await Promise.all([
      api.GET('/api/requests', { params: { query: { page, limit: PAGE_SIZE } } }),
      api.GET('/api/kinds'),
    ]);
    const labels = kindLabels(kinds.data?.kinds);
    if (!list.data) return missing(list.response.status) ? { status: 404 } : failed(list.response);
    const pages = Math.max(1, Math.ceil(list.data.total / list.data.limit));
    const main = html`<h1>${t('wishlist.title')}</h1>
<p class="lead">${t('wishlist.description')}</p>
${me ? createForm(kinds.data?.kinds ?? [], t) : html`<p><a href="/sign-in">${t('wishlist.signInToVote')}</a></p>`}
<section aria-labelledby="requests-heading">
<h2 id="requests-heading" class="visually-hidden">${t('wishlist.title')}</h2>
<p class="visually-hidden" id="vote-status" role="status" aria-live="polite"></p>
${list.data.requests.length ? html`<ol class="wishes" id="wishes">${list.data.requests.map((r) => requestItem(r, me !== null, t, labels))}</ol>` : html`<p id="wishes-empty">${t('wishlist.empty')}</p>`}
${pagination(pageUrl(ctx.request.originalUrl), list.data.page, pages, t)}
</section>`;
    return {
      title: t('wishlist.title'),
      description: t('wishlist.description'),
      main,
      scripts: CATALOGUE_SCRIPTS,
      clientStrings: WISHLIST_CLIENT_STRINGS,
    };
  }
}
