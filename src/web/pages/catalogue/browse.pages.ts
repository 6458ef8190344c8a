import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { components } from '../../../client/registry-client';
import { catalogueFeed, kindFeed } from '../../components/feed-links';
import { kindLabels, pluginList } from '../../components/plugin-card';
import { pluralKeys } from '../../i18n/plural';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import type { WebContext } from '../../web-context';
import { WebRenderer, type PageOutcome, type RenderedPage } from '../../web-renderer';
import { CATALOGUE_SCRIPTS, failed, pageNumber, pagination, pageUrl, SUGGEST_CLIENT_STRINGS } from './catalogue-parts';
import type { CatalogueParams } from './catalogue-query';
import { type ExtParams, facetNav } from './facet-nav';

type KindDto = components['schemas']['KindDto'];
type FieldDto = components['schemas']['ExtensionFieldDto'];

const SORTS = ['updated', 'new', 'name', 'featured'] as const;
const PAGE_SIZE = 20;
/** The strings browser/catalogue.ts renders results and suggestions with. */
export const BROWSE_CLIENT_STRINGS = [
  ...SUGGEST_CLIENT_STRINGS,
  'facets.heading',
  'facets.clear',
  'facets.clearFilter',
  'facets.selected',
  ...pluralKeys('browse.count'),
  'browse.none',
  'browse.invalid',
  'badge.verified',
  'badge.featured',
  'badge.deprecated',
  ...pluralKeys('plugin.downloads'),
  'pagination.label',
  'pagination.previous',
  'pagination.next',
  'pagination.page',
];

/** The browse form's values as the visitor sent them (strings only; repeated ones: the first). */
interface BrowseForm {
  q: string;
  kind: string;
  category: string;
  tag: string;
  verified: boolean;
  featured: boolean;
  sort: string;
  page: number;
  ext: Record<string, string>;
}

function first(value: unknown): string {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' ? one.trim() : '';
}

export function readBrowseForm(query: Request['query']): BrowseForm {
  const ext: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (name.startsWith('ext.') && first(value)) ext[name] = first(value);
  const sort = first(query.sort);
  return {
    q: first(query.q),
    kind: first(query.kind),
    category: first(query.category),
    tag: first(query.tag),
    verified: first(query.verified) === '1',
    featured: first(query.featured) === '1',
    sort: (SORTS as readonly string[]).includes(sort) ? sort : '',
    page: pageNumber(first(query.page)),
    ext,
  };
}

/** The API's query for the form: named parameters typed, `ext.<key>` ones beside them. */
export function catalogueQuery(form: BrowseForm, fields: readonly FieldDto[]): CatalogueParams & Record<string, string | number> {
  const declared = new Set(fields.map((f) => `ext.${f.key}`));
  const ext = Object.fromEntries(Object.entries(form.ext).filter(([name]) => declared.has(name)));
  return {
    ...(form.q ? { search: form.q } : {}),
    ...(form.kind ? { kind: form.kind } : {}),
    ...(form.category ? { category: form.category } : {}),
    ...(form.tag ? { tag: form.tag } : {}),
    ...(form.verified ? { verified: '1' as const } : {}),
    ...(form.featured ? { featured: '1' as const } : {}),
    ...(form.sort ? { sort: form.sort as CatalogueParams['sort'] } : {}),
    page: form.page,
    limit: PAGE_SIZE,
    facets: '1',
    ...ext,
  };
}

/** The fields a search may filter on: the chosen kind's own, and those declared for every kind. */
export function filterFields(kinds: readonly KindDto[], everyKind: readonly FieldDto[], kind: string): FieldDto[] {
  return [...(kinds.find((k) => k.key === kind)?.extensionFields ?? []), ...everyKind];
}

function fieldInput(field: FieldDto, value: string, t: Translate): SafeHtml {
  const id = `ext-${field.key}`;
  const name = `ext.${field.key}`;
  const options = (values: readonly { value: string; label: string }[]) =>
    html`<select id="${id}" name="${name}"><option value="">${t('browse.any')}</option>${values.map((o) => html`<option value="${o.value}"${o.value === value ? html` selected` : null}>${o.label}</option>`)}</select>`;
  let control: SafeHtml;
  if (field.type === 'boolean')
    control = options([
      { value: 'true', label: t('browse.yes') },
      { value: 'false', label: t('browse.no') },
    ]);
  else if (field.enum?.length) control = options(field.enum.map((v) => ({ value: String(v), label: String(v) })));
  else
    control = html`<input id="${id}" name="${name}" type="${field.type === 'number' ? 'number' : 'text'}" value="${value}"${field.type === 'number' ? html` step="any"` : null}>`;
  return html`<div class="field"><label for="${id}">${field.key}</label>${control}</div>`;
}

export function resultCount(total: number, t: Translate): string {
  return t.count('browse.count', total);
}

/** `/plugins`: the search form (a plain GET form, so it works before any script) and the results. */
@Injectable()
export class BrowsePages {
  constructor(private readonly renderer: WebRenderer) {}

  browse(request: Request, response: Response): Promise<RenderedPage> {
    return this.renderer.render(request, response, (ctx) => this.build(ctx));
  }

  private async build(ctx: WebContext): Promise<PageOutcome> {
    const { api, t } = ctx;
    const form = readBrowseForm(ctx.request.query);
    const kinds = await api.GET('/api/kinds');
    const kindList = kinds.data?.kinds ?? [];
    const fields = filterFields(kindList, kinds.data?.extensionFields ?? [], form.kind);
    const query = catalogueQuery(form, fields);
    const result = await api.GET('/api/plugins', { params: { query } });
    // A 400 names the filters that are wrong, shown above the (empty) results; anything else is a failure.
    if (result.error && result.response.status !== 400) failed(result.response);
    const problems = result.error?.errors?.map((e) => e.message) ?? (result.error ? [result.error.detail] : []);
    const plugins = result.data?.plugins ?? [];
    const total = result.data?.total ?? 0;
    const checkbox = (name: 'verified' | 'featured', label: string) =>
      html`<div class="field check"><input id="filter-${name}" name="${name}" type="checkbox" value="1"${form[name] ? html` checked` : null}><label for="filter-${name}">${label}</label></div>`;
    // Open when the visitor set one of them, so a filter in force is never out of sight.
    const moreOpen = Boolean(form.category || form.tag || form.verified || form.featured || form.sort);
    const sortOption = (value: string, label: string) =>
      html`<option value="${value}"${form.sort === value ? html` selected` : null}>${label}</option>`;
    const labels = Object.fromEntries(kindList.map((k) => [k.key, k.label]));
    const extParams: ExtParams = {
      byKind: Object.fromEntries(kindList.map((k) => [k.key, (k.extensionFields ?? []).map((f) => `ext.${f.key}`)])),
      global: (kinds.data?.extensionFields ?? []).map((f) => `ext.${f.key}`),
    };
    const selected: Record<string, string> = { kind: form.kind, category: form.category, tag: form.tag, ...form.ext };
    const main = html`<h1>${t('browse.title')}</h1>
<div class="browse">
<div class="browse-side">
<form class="filters" id="browse-form" action="/plugins" method="get" aria-labelledby="filters-heading">
  <h2 id="filters-heading">${t('browse.filters')}</h2>
  <div class="field"><label for="filter-q">${t('browse.search')}</label><input id="filter-q" name="q" type="search" value="${form.q}" autocomplete="off"></div>
  <div class="field"><label for="filter-kind">${t('browse.kind')}</label><select id="filter-kind" name="kind"><option value="">${t('browse.anyKind')}</option>${kindList.map((k) => html`<option value="${k.key}"${k.key === form.kind ? html` selected` : null}>${k.label}</option>`)}</select></div>
  ${fields.length > 0 ? html`<fieldset class="ext-fields"><legend>${t('browse.fields')}</legend>${fields.map((f) => fieldInput(f, form.ext[`ext.${f.key}`] ?? '', t))}</fieldset>` : null}
  <details class="more-filters"${moreOpen ? html` open` : null}>
  <summary>${t('browse.moreFilters')}</summary>
  <div class="field"><label for="filter-category">${t('browse.category')}</label><input id="filter-category" name="category" value="${form.category}"></div>
  <div class="field"><label for="filter-tag">${t('browse.tag')}</label><input id="filter-tag" name="tag" value="${form.tag}"></div>
  ${checkbox('verified', t('browse.verifiedOnly'))}
  ${checkbox('featured', t('browse.featuredOnly'))}
  <div class="field"><label for="filter-sort">${t('browse.sort')}</label><select id="filter-sort" name="sort">${sortOption('', t('browse.sort.relevance'))}${SORTS.map((s) => sortOption(s, t(`browse.sort.${s}`)))}</select></div>
  </details>
  <p class="actions"><button type="submit">${t('browse.apply')}</button> <a href="/plugins">${t('browse.reset')}</a></p>
</form>
${facetNav(pageUrl(ctx.request.originalUrl), result.data?.facets, selected, fields, labels, t, extParams)}
</div>
<section class="results" aria-labelledby="results-count">
  <p id="results-count" class="status" role="status" aria-live="polite">${problems.length ? html`${t('browse.invalid')} ${problems.join('; ')}` : resultCount(total, t)}</p>
  <div id="results">
    ${plugins.length ? pluginList(plugins, t, kindLabels(kindList)) : html`<p>${t('browse.none')}</p>`}
    ${pagination(pageUrl(ctx.request.originalUrl), result.data?.page ?? 1, result.data?.totalPages ?? 1, t)}
  </div>
</section>
</div>`;
    return {
      title: form.q ? `${t('browse.title')}: ${form.q}` : t('browse.title'),
      description: t('browse.description'),
      main,
      scripts: CATALOGUE_SCRIPTS,
      clientStrings: BROWSE_CLIENT_STRINGS,
      clientData: {
        kindLabels: labels,
        extParams,
        facetLabels: {
          kind: t('browse.kind'),
          category: t('browse.category'),
          tags: t('browse.tag'),
          ...Object.fromEntries(fields.map((f) => [`ext.${f.key}`, f.label ?? f.key])),
        },
      },
      alternates: [catalogueFeed(t), ...kindList.filter((k) => k.key === form.kind).map((k) => kindFeed(t, k.key, k.label))],
    };
  }
}
