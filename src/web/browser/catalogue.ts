import type { components, paths } from '../../client/registry-client';
import { api, problemMessage } from './lib/api';
import { debounce, el } from './lib/dom';
import { announce, ready, t } from './lib/page';
import { enhanceWishlist } from './lib/wishlist';

type CatalogueItem = components['schemas']['CatalogueItemDto'];
type CatalogueQuery = NonNullable<paths['/api/plugins']['get']['parameters']['query']>;

/** The same card the server renders (components/plugin-card.ts), built in the page. */
function pluginCard(plugin: CatalogueItem): HTMLLIElement {
  const version = plugin.latestVersion ?? plugin.latestPrerelease;
  return el(
    'li',
    { class: 'plugin-card' },
    el('h3', {}, el('a', { href: `/plugins/${encodeURIComponent(plugin.slug)}` }, plugin.name), version ? ' ' : null, version ? el('span', { class: 'version' }, version) : null),
    el('p', { class: 'badges' }, plugin.verified ? el('span', { class: 'badge verified' }, t('badge.verified')) : null, plugin.featured ? el('span', { class: 'badge featured' }, t('badge.featured')) : null),
    plugin.description ? el('p', { class: 'description' }, plugin.description) : null,
    el('p', { class: 'meta' }, plugin.kind ? el('a', { href: `/kinds/${encodeURIComponent(plugin.kind)}` }, plugin.kind) : null, plugin.kind ? ' · ' : null, t('plugin.downloads', { count: plugin.downloads.toLocaleString('en') })),
  );
}

/** The browse form's values as the API's query (q is `search`; `ext.<key>` ones ride along). */
function apiQuery(params: URLSearchParams): CatalogueQuery & Record<string, string | number> {
  const query: Record<string, string | number> = {};
  for (const [name, value] of params) query[name === 'q' ? 'search' : name] = name === 'page' ? Number(value) : value;
  return { ...query, limit: 20 };
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
  return el('nav', { class: 'pagination', 'aria-label': t('pagination.label') }, page > 1 ? link(page - 1, 'prev', t('pagination.previous')) : null, el('span', {}, t('pagination.page', { page, pages })), page < pages ? link(page + 1, 'next', t('pagination.next')) : null);
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
    results.replaceChildren(data.plugins.length ? el('ul', { class: 'plugin-list' }, ...data.plugins.map(pluginCard)) : el('p', {}, t('browse.none')), pager(params, data.page, data.totalPages) ?? '');
    announce(count, data.total === 1 ? t('browse.countOne') : t('browse.count', { count: data.total.toLocaleString('en') }));
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
    else if (!(target instanceof HTMLInputElement && (target.type === 'search' || target.type === 'text' || target.type === 'number'))) void update();
  });
}

/** The header's search box: up to five matching plugins under it, as links, while typing. */
function enhanceSuggestions(input: HTMLInputElement): void {
  const box = el('div', { class: 'suggestions', id: 'search-suggestions', hidden: true });
  const status = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  input.after(box, status);
  input.setAttribute('aria-controls', box.id);
  input.setAttribute('aria-expanded', 'false');
  const close = () => {
    box.hidden = true;
    input.setAttribute('aria-expanded', 'false');
  };
  const links = () => Array.from(box.querySelectorAll('a'));
  let latest = 0;
  const suggest = debounce(async () => {
    const q = input.value.trim();
    const asked = ++latest;
    if (q.length < 2) return close();
    const { data } = await api.GET('/api/plugins', { params: { query: { search: q, limit: 5 } } });
    if (asked !== latest || !data) return;
    const all = el('li', { class: 'all' }, el('a', { href: `/plugins?q=${encodeURIComponent(q)}` }, t('browse.allResults', { q })));
    box.replaceChildren(el('ul', {}, ...data.plugins.map((p) => el('li', {}, el('a', { href: `/plugins/${encodeURIComponent(p.slug)}` }, p.name, p.description ? el('small', {}, ` — ${p.description}`) : null))), all));
    box.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    status.textContent = t('browse.suggestions', { count: data.plugins.length });
  }, 200);
  input.addEventListener('input', () => suggest());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && !box.hidden) {
      event.preventDefault();
      links()[0]?.focus();
    } else if (event.key === 'Escape') close();
  });
  box.addEventListener('keydown', (event) => {
    const list = links();
    const index = list.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = index + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0) input.focus();
      else list[Math.min(next, list.length - 1)]?.focus();
    } else if (event.key === 'Escape') {
      close();
      input.focus();
    }
  });
  input.form?.addEventListener('focusout', (event) => {
    if (!input.form?.contains(event.relatedTarget as Node | null)) close();
  });
}

ready(() => {
  const suggestInput = document.querySelector<HTMLInputElement>('input[data-suggest]');
  if (suggestInput) enhanceSuggestions(suggestInput);
  const browseForm = document.getElementById('browse-form');
  if (browseForm instanceof HTMLFormElement) enhanceBrowse(browseForm);
  enhanceWishlist();
});
