/**
 * Language tags (BCP 47, RFC 5646) as readers send them, and the one rule that picks a stored
 * locale for a request: README languages (spec: GET /api/plugins/:slug) and CMS pages both use
 * `resolveLocale`.
 */

/** Longer than any tag a reader means (RFC 5646 §4.4.1 asks for 35); a bound on the matcher. */
export const MAX_LANGUAGE_TAG_LENGTH = 64;

/**
 * RFC 5646 §2.1 well-formedness, case-insensitive: language (with up to three extlangs), script,
 * region, variants, extensions, private use; or a private-use tag alone. Every alternative has
 * its own length or leading character, so matching stays linear.
 */
const LANGTAG =
  /^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?|x(?:-[a-z0-9]{1,8})+)$/i;

/** RFC 5646's irregular grandfathered tags: well-formed, though the grammar above does not fit them. */
const IRREGULAR = new Set(
  [
    'en-GB-oed',
    'i-ami',
    'i-bnn',
    'i-default',
    'i-enochian',
    'i-hak',
    'i-klingon',
    'i-lux',
    'i-mingo',
    'i-navajo',
    'i-pwn',
    'i-tao',
    'i-tay',
    'i-tsu',
    'sgn-BE-FR',
    'sgn-BE-NL',
    'sgn-CH-DE',
  ].map((tag) => tag.toLowerCase()),
);

/** The canonical letter case of RFC 5646 §2.1.1: `zh-Hant-TW`, `pt-BR`, `de-CH-x-phonebk`. */
function canonicalCase(subtags: readonly string[]): string {
  let afterSingleton = false;
  return subtags
    .map((subtag, index) => {
      const lower = subtag.toLowerCase();
      if (subtag.length === 1) afterSingleton = true;
      if (index === 0 || afterSingleton) return lower;
      if (subtag.length === 2) return subtag.toUpperCase();
      if (subtag.length === 4 && /^[a-z]/i.test(subtag)) return subtag[0].toUpperCase() + lower.slice(1);
      return lower;
    })
    .join('-');
}

/**
 * A well-formed language tag in its canonical case, `_` read as `-` (`pt_br` → `pt-BR`, `EN` →
 * `en`); null for anything else (too long, empty subtags, `../`, `de;q=0.9`).
 */
export function normalizeLanguageTag(input: unknown): string | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_LANGUAGE_TAG_LENGTH) return null;
  const tag = input.replace(/_/g, '-');
  if (IRREGULAR.has(tag.toLowerCase())) return tag.toLowerCase();
  if (!LANGTAG.test(tag)) return null;
  return canonicalCase(tag.split('-'));
}

export function isLanguageTag(input: unknown): input is string {
  return normalizeLanguageTag(input) !== null;
}

/**
 * RFC 4647 §3.4 lookup: the tag, then the tag with its last subtag cut, and so on, a singleton
 * left at the end cut with it: `zh-Hant-TW` → `zh-Hant` → `zh`.
 */
export function lookupChain(tag: string): string[] {
  const chain: string[] = [];
  const subtags = tag.split('-');
  while (subtags.length > 0) {
    chain.push(subtags.join('-'));
    subtags.pop();
    if (subtags.length > 0 && subtags[subtags.length - 1].length === 1) subtags.pop();
  }
  return chain;
}

const primaryLanguage = (tag: string) => tag.split('-')[0].toLowerCase();
/** A region subtag (`BR`, `419`) past the language: how two variants of one language are told apart. */
const regionOf = (tag: string) =>
  tag
    .split('-')
    .slice(1)
    .find((subtag) => /^(?:[a-z]{2}|[0-9]{3})$/i.test(subtag))
    ?.toUpperCase();

/**
 * The available locale for one wanted tag: its lookup chain matched without regard to case (the
 * stored spelling is answered), then another regional variant of its language (a reader of
 * `pt-BR` reads `pt-PT` better than English), the one for the same region first
 * (`zh-Hant-TW` → `zh-TW`), else the first in the order given.
 */
function match(wanted: string | null, available: readonly string[]): string | undefined {
  if (wanted === null) return undefined;
  const byKey = new Map<string, string>();
  for (const locale of available) {
    const key = (normalizeLanguageTag(locale) ?? locale).toLowerCase();
    if (!byKey.has(key)) byKey.set(key, locale);
  }
  for (const step of lookupChain(wanted)) {
    const found = byKey.get(step.toLowerCase());
    if (found !== undefined) return found;
  }
  const language = primaryLanguage(wanted);
  const variants = available.filter((locale) => primaryLanguage(locale) === language);
  const region = regionOf(wanted);
  return (region !== undefined ? variants.find((locale) => regionOf(locale) === region) : undefined) ?? variants[0];
}

export interface LocaleFallback {
  /** Tried the same way when the request finds nothing: `en` for READMEs, the site's default for pages. */
  defaultLocale: string;
  /**
   * What to answer when neither the request nor the default finds anything; the first available
   * when left out.
   */
  lastResort?: string | null;
}

/**
 * The locale to serve a request for `requested` from `available` (spec's resolution order): the
 * requested tag and its lookup chain (`zh-Hant-TW` → `zh-Hant` → `zh`, case and `_` ignored),
 * another variant of its language, then the same for the default locale, then the last resort
 * (the first available). A missing or malformed request is no preference. Answers the available
 * spelling; null only when nothing is available and no last resort is given.
 */
export function resolveLocale(requested: string | null | undefined, available: readonly string[], fallback: LocaleFallback): string | null {
  return (
    match(normalizeLanguageTag(requested), available) ??
    match(normalizeLanguageTag(fallback.defaultLocale), available) ??
    (fallback.lastResort !== undefined ? fallback.lastResort : (available[0] ?? null))
  );
}

/** README locales fall back to English (spec: exact, base language, en, first available). */
export const README_FALLBACK_LOCALE = 'en';

/**
 * Picks the README locale for a request: the resolution rule with `en` as the default; null when
 * the plugin has no per-locale READMEs.
 */
export function resolveReadmeLocale(requested: string | null | undefined, available: readonly string[]): string | null {
  return resolveLocale(requested, available, { defaultLocale: README_FALLBACK_LOCALE });
}

/** The locale under which a README without a locale is stored (the manifest's `readme`, or README.md). */
export const DEFAULT_README_LOCALE = 'default';

/**
 * The same rule over the READMEs stored for a release, where `default` may sit beside the named
 * locales: requested, `en`, then `default`, then the first available. `default` is never a
 * language. Null only when nothing is stored.
 */
export function resolveStoredReadmeLocale(requested: string | null | undefined, stored: readonly string[]): string | null {
  const named = stored.filter((locale) => locale !== DEFAULT_README_LOCALE);
  const lastResort = named.length < stored.length ? DEFAULT_README_LOCALE : (named[0] ?? null);
  return resolveLocale(requested, named, { defaultLocale: README_FALLBACK_LOCALE, lastResort });
}

/** The same rule with the site's own default in place of `en` (CMS pages). */
export function resolveLocaleWithDefault(
  requested: string | null | undefined,
  available: readonly string[],
  defaultLocale: string,
): string | null {
  return resolveLocale(requested, available, { defaultLocale });
}
