const LOCALE = /^([A-Za-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))*$/;

function languageOf(locale: string): string {
  return locale.split(/[-_]/)[0].toLowerCase();
}

function sameLocale(a: string, b: string): boolean {
  return a.replace(/_/g, '-').toLowerCase() === b.replace(/_/g, '-').toLowerCase();
}

/**
 * Picks the README locale for a request (spec: GET /api/plugins/:slug): exact match, then the
 * base language, then `en`, then the first available; null when the plugin has no per-locale
 * READMEs. Matching ignores case and accepts `_` for `-` (`pt_br` finds `pt-BR`). "Base
 * language" first means the bare language (`pt-BR` → `pt`), then any regional variant of it in
 * the order given (`pt` → `pt-PT`, `pt-BR` → `pt-PT`), since a reader of one variant reads the
 * other better than English; `en` likewise falls back to its first regional variant. "First"
 * means first in the order the caller passes.
 */
export function resolveReadmeLocale(requested: string | null | undefined, available: readonly string[]): string | null {
  if (available.length === 0) return null;
  return preferredLocale(requested, available) ?? available[0];
}

/** The locale under which a README without a locale is stored (the manifest's `readme`, or README.md). */
export const DEFAULT_README_LOCALE = 'default';

/**
 * The same rule over the READMEs stored for a release, where `default` may sit beside the named
 * locales: exact match, base language, `en`, then `default`, then the first available. Null only
 * when nothing is stored.
 */
export function resolveStoredReadmeLocale(requested: string | null | undefined, stored: readonly string[]): string | null {
  const named = stored.filter((locale) => locale !== DEFAULT_README_LOCALE);
  const fallback = named.length < stored.length ? DEFAULT_README_LOCALE : (named[0] ?? null);
  return preferredLocale(requested, named) ?? fallback;
}

/**
 * The same rule with the site's own default in place of `en` (CMS pages): exact match, then the
 * base language, then the default locale (exactly, then its language), then the first available
 * in the order given. Null only when nothing is available.
 */
export function resolveLocaleWithDefault(requested: string | null | undefined, available: readonly string[], defaultLocale: string): string | null {
  if (available.length === 0) return null;
  return requestedLocale(requested, available) ?? requestedLocale(defaultLocale, available) ?? available[0];
}

/** Exact match, then the base language, then English; undefined when none of them is available. */
function preferredLocale(requested: string | null | undefined, available: readonly string[]): string | undefined {
  return requestedLocale(requested, available) ?? bestOfLanguage('en', available);
}

/** Exact match, then the base language; undefined for a malformed request or no match. */
function requestedLocale(requested: string | null | undefined, available: readonly string[]): string | undefined {
  const wanted = typeof requested === 'string' ? requested.trim() : '';
  if (!LOCALE.test(wanted)) return undefined;
  return available.find((locale) => sameLocale(locale, wanted)) ?? bestOfLanguage(languageOf(wanted), available);
}

function bestOfLanguage(language: string, available: readonly string[]): string | undefined {
  return available.find((locale) => locale.toLowerCase() === language) ?? available.find((locale) => languageOf(locale) === language);
}
