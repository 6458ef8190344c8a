import type { components } from '../../../client/registry-client';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';

type FacetValue = components['schemas']['FacetValueDto'];
type FieldDto = components['schemas']['ExtensionFieldDto'];

/** The page's query parameter a facet dimension sets: `tags` is filtered one `tag` at a time. */
export function facetParam(dimension: string): string {
  return dimension === 'tags' ? 'tag' : dimension;
}

/** The `ext.<key>` parameters a search may carry: by kind, its own fields' and the global ones; without a kind, the global ones. */
export interface ExtParams {
  byKind: Record<string, readonly string[]>;
  global: readonly string[];
}

/**
 * The page's URL with `param` set to `value` (or removed, for null), every other parameter kept,
 * back to page 1; but a kind link drops the `ext.*` parameters the kind it leads to does not
 * declare (the page would ignore them, and its counts would not match the link's).
 */
export function facetHref(url: URL, param: string, value: string | null, extParams?: ExtParams): string {
  const next = new URL(url);
  next.searchParams.delete('page');
  if (value === null) next.searchParams.delete(param);
  else next.searchParams.set(param, value);
  if (param === 'kind' && extParams) {
    const kept = new Set([...(value === null ? [] : (extParams.byKind[value] ?? [])), ...extParams.global]);
    for (const name of [...next.searchParams.keys()]) if (name.startsWith('ext.') && !kept.has(name)) next.searchParams.delete(name);
  }
  return `${next.pathname}${next.search}`;
}

/**
 * The facets as filter links with their counts: a nav with a heading, one list per dimension
 * under its own heading. A value's link sets the filter (replacing the dimension's current
 * value); the selected value is marked and offers a link that clears it. Extension fields are
 * shown only when the page can filter on them (the chosen kind's fields and the global ones).
 */
export function facetNav(
  url: URL,
  facets: Record<string, FacetValue[]> | undefined,
  selected: Record<string, string>,
  fields: readonly FieldDto[],
  kindLabels: Record<string, string>,
  t: Translate,
  extParams?: ExtParams,
): SafeHtml | null {
  if (!facets) return null;
  const labels: Record<string, string> = { kind: t('browse.kind'), category: t('browse.category'), tags: t('browse.tag') };
  for (const field of fields) labels[`ext.${field.key}`] = field.label ?? field.key;
  const dimensions = Object.keys(facets).filter((d) => labels[d] !== undefined && facets[d].length > 0);
  if (!dimensions.length) return null;
  const valueLabel = (dimension: string, value: string) => (dimension === 'kind' ? (kindLabels[value] ?? value) : value);
  const section = (dimension: string, index: number) => {
    const param = facetParam(dimension);
    const current = selected[param];
    const id = `facet-${index}`;
    return html`<section class="facet">
<h3 id="${id}">${labels[dimension]}</h3>
<ul>${facets[dimension].map((v) =>
      v.value === current
        ? html`<li class="selected"><span aria-current="true">${valueLabel(dimension, v.value)} (${v.count}) <span class="visually-hidden">${t('facets.selected')}</span></span> <a href="${facetHref(url, param, null, extParams)}"><span aria-hidden="true">${t('facets.clear')}</span><span class="visually-hidden">${t('facets.clearFilter', { dimension: labels[dimension] })}</span></a></li>`
        : html`<li><a href="${facetHref(url, param, v.value, extParams)}">${valueLabel(dimension, v.value)} (${v.count})</a></li>`,
    )}</ul>
</section>`;
  };
  return html`<nav class="facets" id="facets" aria-labelledby="facets-heading">
<h2 id="facets-heading">${t('facets.heading')}</h2>
${dimensions.map(section)}
</nav>`;
}
