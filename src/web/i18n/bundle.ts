/** The languages the web pages have UI strings for; a site locale without them reads English. */
export const UI_LOCALES = ['en', 'de'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];

/** One area's UI strings: every key in English, and the same keys in each other UI locale. */
export type Bundle<K extends string = string> = { en: Record<K, string> } & { [L in Exclude<UiLocale, 'en'>]: Record<K, string> };

/** Declares an area's strings so a missing German key is a compile error, not a blank button. */
export function bundle<K extends string>(strings: { en: Record<K, string>; de: Record<K, string> }): Bundle<K> {
  return strings;
}
