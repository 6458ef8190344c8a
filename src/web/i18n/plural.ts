/**
 * Counts in words by the language's plural rules (Intl.PluralRules): a counted message is a key
 * with one entry per plural category the language uses (`browse.count.one`, `browse.count.other`;
 * `few` and `many` where a language has them), `other` being the fallback. Framework-free: the
 * server's pages and the browser bundles share it.
 */

/** Every category Intl.PluralRules can answer, so a page's script gets all a language uses. */
export const PLURAL_CATEGORIES: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The keys a counted message may be stored under (for a page's client strings). */
export function pluralKeys(key: string): string[] {
  return PLURAL_CATEGORIES.map((category) => `${key}.${category}`);
}

/** The key to read for `count`: its plural category's, or `other` when the language gives none. */
export function pluralKey(locale: string, key: string, count: number, has: (key: string) => boolean): string {
  const exact = `${key}.${new Intl.PluralRules(locale).select(count)}`;
  return has(exact) ? exact : `${key}.other`;
}

/** A number as the language writes it (1,234 in English, 1.234 in German). */
export function formatNumber(locale: string, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** A counted message: the right plural form, with `{count}` filled in as the language writes numbers. */
export function countText(
  locale: string,
  lookup: (key: string, params: Record<string, string | number>) => string,
  has: (key: string) => boolean,
  key: string,
  count: number,
  params: Record<string, string | number> = {},
): string {
  return lookup(pluralKey(locale, key, count, has), { ...params, count: formatNumber(locale, count) });
}
