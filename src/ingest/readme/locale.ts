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
  const wanted = typeof requested === 'string' ? requested.trim() : '';
  if (LOCALE.test(wanted)) {
    const exact = available.find((locale) => sameLocale(locale, wanted));
    if (exact) return exact;
    const language = languageOf(wanted);
    const variant = bestOfLanguage(language, available);
    if (variant) return variant;
  }
  return bestOfLanguage('en', available) ?? available[0];
}

function bestOfLanguage(language: string, available: readonly string[]): string | undefined {
  return available.find((locale) => locale.toLowerCase() === language) ?? available.find((locale) => languageOf(locale) === language);
}
