import { normalizeLanguageTag } from '../../../lib/locale/locale';
import { html, type SafeHtml } from '../../html';
import type { Translate } from '../../i18n/messages';
import { pluralKeys } from '../../i18n/plural';

/** The header search box's suggestions (browser/catalogue.ts) need these on every catalogue page. */
export const SUGGEST_CLIENT_STRINGS = [...pluralKeys('browse.suggestions'), 'browse.suggestionsLabel', 'browse.allResults'];
/** What every catalogue page loads: the header's suggestions, and the page's own enhancements. */
export const CATALOGUE_SCRIPTS = ['catalogue'];

/** Only http(s) addresses become links: a manifest's `javascript:` URL stays text. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:' ? value : null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatDate(epochMs: number, locale: string): string {
  return new Date(epochMs).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A positive page number from the query, 1 when absent or not a number. */
export function pageNumber(value: unknown): number {
  const page = typeof value === 'string' ? Number.parseInt(value, 10) : NaN;
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** Previous/next links that keep every other parameter of `url`. */
export function pagination(url: URL, page: number, pages: number, t: Translate): SafeHtml | null {
  if (pages <= 1) return null;
  const link = (target: number) => {
    const next = new URL(url);
    next.searchParams.set('page', String(target));
    return `${next.pathname}${next.search}`;
  };
  return html`<nav class="pagination" aria-label="${t('pagination.label')}">
  ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">${t('pagination.previous')}</a>` : null}
  <span>${t('pagination.page', { page, pages })}</span>
  ${page < pages ? html`<a href="${link(page + 1)}" rel="next">${t('pagination.next')}</a>` : null}
</nav>`;
}

/** The request's own URL (path and query), to build links from. */
export function pageUrl(originalUrl: string): URL {
  return new URL(originalUrl, 'http://page.invalid');
}

/** A well-formed language tag, as the API reads it (README and page languages): anything else is not asked for. */
export function apiLocale(value: unknown): string | null {
  return normalizeLanguageTag(value);
}

/** Not there: the API's 404, or a slug it refuses outright (400). */
export function missing(status: number): boolean {
  return status === 404 || status === 400;
}

/** An answer that is neither data nor "not there" is the page's failure, not a blank section. */
export function failed(response: globalThis.Response): never {
  throw new Error(`the API answered ${response.status} for ${new URL(response.url).pathname}`);
}
