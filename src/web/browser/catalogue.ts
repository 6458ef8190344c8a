import type { components, paths } from '../../client/registry-client';
import { api, problemMessage } from './lib/api';
import { pluginCardMarkup, type CatalogueItem } from '../components/plugin-card-markup';
import { debounce, el, fromMarkup } from './lib/dom';
import { announce, pageData, ready, t, tCount } from './lib/page';
import { enhanceWishlist } from './lib/wishlist';

type CatalogueQuery = NonNullable<paths['/api/plugins']['get']['parameters']['query']>;

type FacetValue = components['schemas']['FacetValueDto'];

const browseData = pageData<{
  kindLabels?: Record<string, string>;
  facetLabels?: Record<string, string>;
  extParams?: { byKind: Record<string, string[]>; global: string[] };
}>();
/** The ext.<key> parameters each kind's search may carry (pages/catalogue/facet-nav.ts: a kind link drops the others). */
const extParams = browseData?.extParams;
/** Kind labels by key, which the browse page sends (a card names a kind by its label). */
const kindLabels: Record<string, string> = browseData?.kindLabels ?? {};
/** The headings of the facets the page shows (kind, category, tags, the filterable ext.<key> fields). */
const facetLabels: Record<string, string> = browseData?.facetLabels ?? {};

/** The facet links as the server renders them (pages/catalogue/facet-nav.ts), for results that followed the form. */
function facetNav(params: URLSearchParams, facets: Record<string, FacetValue[]>): HTMLElement | null {
  const dimensions = Object.keys(facets).filter((d) => facetLabels[d] !== undefined && facets[d].length > 0);
  if (!dimensions.length) return null;
  const href = (param: string, value: string | null) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (value === null) next.delete(param);
    else next.set(param, value);
    if (param === 'kind' && extParams) {
      const kept = new Set([...(value === null ? [] : (extParams.byKind[value] ?? [])), ...extParams.global]);
      for (const name of [...next.keys()]) if (name.startsWith('ext.') && !kept.has(name)) next.delete(name);
    }
    return `/plugins${next.size ? `?${next.toString()}` : ''}`;
  };
  const label = (dimension: string, value: string) => (dimension === 'kind' ? (kindLabels[value] ?? value) : value);
  const sections = dimensions.map((dimension, index) => {
    const param = dimension === 'tags' ? 'tag' : dimension;
    const current = params.get(param);
    const items = facets[dimension].map((v) =>
      v.value === current
        ? el(
            'li',
            { class: 'selected' },
            el(
              'span',
              { 'aria-current': 'true' },
              `${label(dimension, v.value)} (${v.count}) `,
              el('span', { class: 'visually-hidden' }, t('facets.selected')),
            ),
            ' ',
            el(
              'a',
              { href: href(param, null) },
              el('span', { 'aria-hidden': 'true' }, t('facets.clear')),
              el('span', { class: 'visually-hidden' }, t('facets.clearFilter', { dimension: facetLabels[dimension] })),
            ),
          )
        : el('li', {}, el('a', { href: href(param, v.value) }, `${label(dimension, v.value)} (${v.count})`)),
    );
    return el('section', { class: 'facet' }, el('h3', { id: `facet-${index}` }, facetLabels[dimension]), el('ul', {}, ...items));
  });
  return el(
    'nav',
    { class: 'facets', id: 'facets', 'aria-labelledby': 'facets-heading' },
    el('h2', { id: 'facets-heading' }, t('facets.heading')),
    ...sections,
  );
}

/** The card the server renders (components/plugin-card-markup.ts), icon included, drawn in the page. */
function pluginCard(plugin: CatalogueItem): Node {
  return fromMarkup(
    pluginCardMarkup(plugin, {
      text: (key) => t(key),
      downloads: (count) => tCount('plugin.downloads', count),
      kindLabel: (key) => kindLabels[key],
    }),
  ) as Node;
}

/** The browse form's values as the API's query (q is `search`; `ext.<key>` ones ride along). */
function apiQuery(params: URLSearchParams): CatalogueQuery & Record<string, string | number> {
  const query: Record<string, string | number> = {};
  for (const [name, value] of params) query[name === 'q' ? 'search' : name] = name === 'page' ? Number(value) : value;
  return { ...query, limit: 20, facets: '1' };
}

function formParams(form: HTMLFormElement, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') params.append(name, value.trim());
  if (page > 1) params.set('page', String(page));
  return params;
}

function pager(params: URLSearchParams, page: number, pages: number): HTMLElement | null {
  if (pages <= 1) return null;
  const link = (target: number, rel: string, text: string) => {
    const next = new URLSearchParams(params);
    next.set('page', String(target));
    return el('a', { href: `/plugins?${next.toString()}`, rel }, text);
  };
  return el(
    'nav',
    { class: 'pagination', 'aria-label': t('pagination.label') },
    page > 1 ? link(page - 1, 'prev', t('pagination.previous')) : null,
    el('span', {}, t('pagination.page', { page, pages })),
    page < pages ? link(page + 1, 'next', t('pagination.next')) : null,
  );
}

/** `/plugins`: results follow the form as the visitor types, without a page load. */
function enhanceBrowse(form: HTMLFormElement): void {
  const results = document.getElementById('results');
  const count = document.getElementById('results-count');
  if (!results || !count) return;
  let latest = 0;
  const update = async () => {
    const params = formParams(form);
    const asked = ++latest;
    const { data, error } = await api.GET('/api/plugins', { params: { query: apiQuery(params) } });
    if (asked !== latest) return;
    history.replaceState(null, '', `/plugins${params.size ? `?${params.toString()}` : ''}`);
    if (!data) {
      announce(count, `${t('browse.invalid')} ${problemMessage(error)}`, 'error');
      return;
    }
    results.replaceChildren(
      data.plugins.length ? el('ul', { class: 'plugin-list' }, ...data.plugins.map(pluginCard)) : el('p', {}, t('browse.none')),
      pager(params, data.page, data.totalPages) ?? '',
    );
    const nav = data.facets ? facetNav(params, data.facets) : null;
    const shown = document.getElementById('facets');
    if (shown && nav) shown.replaceWith(nav);
    else if (shown) shown.remove();
    else if (nav) form.after(nav);
    announce(count, tCount('browse.count', data.total));
  };
  const soon = debounce(() => void update(), 250);
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLElement;
    if (target instanceof HTMLInputElement && (target.type === 'search' || target.type === 'text' || target.type === 'number')) soon();
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    // Another kind has other fields to filter on: the server renders them.
    if (target instanceof HTMLSelectElement && target.name === 'kind') form.requestSubmit();
    else if (!(target instanceof HTMLInputElement && (target.type === 'search' || target.type === 'text' || target.type === 'number')))
      void update();
  });
}

/**
 * The header's search box as an ARIA 1.2 combobox: up to five matching plugins in a listbox under
 * it while typing, and "all results". The focus stays in the box; ArrowDown/ArrowUp move the
 * active option (aria-activedescendant), Enter opens it, Escape closes the list (or, closed,
 * clears the box), and a click opens an option too. Without script it is a plain search field.
 */
function enhanceSuggestions(input: HTMLInputElement): void {
  const list = el('ul', {
    class: 'suggestions',
    id: 'search-suggestions',
    role: 'listbox',
    'aria-label': t('browse.suggestionsLabel'),
    hidden: true,
  });
  const status = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  input.after(list, status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  const options = () => Array.from(list.querySelectorAll<HTMLLIElement>('[role=option]'));
  const activate = (option: HTMLLIElement | null) => {
    for (const each of options()) each.setAttribute('aria-selected', String(each === option));
    if (option) {
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    activate(null);
  };
  const open = () => {
    if (options().length === 0) return;
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  const go = (option: HTMLLIElement) => {
    const href = option.dataset.href;
    if (href) window.location.assign(href);
  };
  const option = (index: number, href: string, ...content: (Node | string | null)[]) =>
    el('li', { id: `search-suggestion-${index}`, role: 'option', 'aria-selected': 'false', 'data-href': href }, ...content);
  let latest = 0;
  const suggest = debounce(async () => {
    const q = input.value.trim();
    const asked = ++latest;
    if (q.length < 2) return close();
    const { data } = await api.GET('/api/plugins', { params: { query: { search: q, limit: 5 } } });
    if (asked !== latest || !data) return;
    const found = data.plugins.map((p, i) =>
      option(
        i,
        `/plugins/${encodeURIComponent(p.slug)}`,
        el('span', { class: 'name' }, p.name),
        p.description ? el('small', {}, ` — ${p.description}`) : null,
      ),
    );
    const all = option(found.length, `/plugins?q=${encodeURIComponent(q)}`, t('browse.allResults', { q }));
    all.classList.add('all');
    // A slower answer for the same words can arrive after the visitor has arrowed onto an option:
    // the option they are on stays active when the new list still has it.
    const activeHref = list.querySelector<HTMLLIElement>('[aria-selected=true]')?.dataset.href;
    list.replaceChildren(...found, all);
    activate(activeHref === undefined ? null : (options().find((o) => o.dataset.href === activeHref) ?? null));
    open();
    status.textContent = tCount('browse.suggestions', data.plugins.length);
  }, 200);
  input.addEventListener('input', () => suggest());
  input.addEventListener('keydown', (event) => {
    const all = options();
    const current = all.findIndex((o) => o.id === input.getAttribute('aria-activedescendant'));
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (all.length === 0) return;
      event.preventDefault();
      if (list.hidden) {
        open();
        if (event.altKey) return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = current === -1 ? (step === 1 ? 0 : all.length - 1) : (current + step + all.length) % all.length;
      activate(all[next]);
    } else if (event.key === 'Enter' && !list.hidden && current >= 0) {
      event.preventDefault();
      go(all[current]);
    } else if (event.key === 'Escape') {
      if (!list.hidden) close();
      else input.value = '';
    }
  });
  // mousedown, not click: the box keeps its focus, so the list is not closed under the pointer.
  list.addEventListener('mousedown', (event) => {
    const picked = (event.target as Element | null)?.closest<HTMLLIElement>('[role=option]');
    if (!picked) return;
    event.preventDefault();
    go(picked);
  });
  input.addEventListener('blur', () => close());
}

ready(() => {
  const suggestInput = document.querySelector<HTMLInputElement>('input[data-suggest]');
  if (suggestInput) enhanceSuggestions(suggestInput);
  const browseForm = document.getElementById('browse-form');
  if (browseForm instanceof HTMLFormElement) enhanceBrowse(browseForm);
  enhanceWishlist();
});
