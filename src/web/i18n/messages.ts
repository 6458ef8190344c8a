import type { Bundle, UiLocale } from './bundle';
import { UI_LOCALES } from './bundle';
import { ACCOUNT } from './account';
import { ADMIN } from './admin';
import { CATALOGUE } from './catalogue';
import { CHARTS } from './charts';
import { COMMON } from './common';
import { SETUP } from './setup';
import { SIGN_IN } from './sign-in';
import { countText, formatNumber } from './plural';

const BUNDLES: readonly Bundle[] = [COMMON, CATALOGUE, ACCOUNT, SETUP, ADMIN, CHARTS, SIGN_IN];

function merge(locale: UiLocale): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const b of BUNDLES) for (const [key, text] of Object.entries(b[locale])) map.set(key, text);
  return map;
}

const MESSAGES: Record<UiLocale, ReadonlyMap<string, string>> = Object.fromEntries(UI_LOCALES.map((l) => [l, merge(l)])) as Record<
  UiLocale,
  ReadonlyMap<string, string>
>;

/** Looks up a UI string; `count` picks a counted message's plural form, `number` writes a number. */
export interface Translate {
  (key: string, params?: Record<string, string | number>): string;
  /** `t.count('browse.count', 2)` reads `browse.count.other` in English: "2 plugins found". */
  count(key: string, count: number, params?: Record<string, string | number>): string;
  number(value: number): string;
  /** Whether the key has a string (in this language or English). */
  has(key: string): boolean;
  /** The language the strings are written in (its plural rules and number format). */
  readonly locale: UiLocale;
}

/** The UI language for a site locale: `de-AT` reads German, a locale without strings English. */
export function uiLocale(locale: string): UiLocale {
  const language = locale.split('-')[0].toLowerCase();
  return (UI_LOCALES as readonly string[]).includes(language) ? (language as UiLocale) : 'en';
}

/** Looks up a key (English when the locale lacks it) and fills `{name}` placeholders. */
export function translator(locale: string): Translate {
  const own = MESSAGES[uiLocale(locale)];
  const has = (key: string) => own.has(key) || MESSAGES.en.has(key);
  const t = (key: string, params?: Record<string, string | number>) => {
    const text = own.get(key) ?? MESSAGES.en.get(key) ?? key;
    return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
  };
  // The plural rules and number format of the language the strings are written in (a locale
  // without UI strings reads English ones: "0 plugins", not French rules' "0 plugin").
  const ui = uiLocale(locale);
  return Object.assign(t, {
    count: (key: string, count: number, params?: Record<string, string | number>) => countText(ui, t, has, key, count, params),
    number: (value: number) => formatNumber(ui, value),
    has,
    locale: ui,
  });
}

/** Every key of every bundle, for the completeness test. */
export function allMessages(): Record<UiLocale, ReadonlyMap<string, string>> {
  return MESSAGES;
}
