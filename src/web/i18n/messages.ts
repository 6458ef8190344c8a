import type { Bundle, UiLocale } from './bundle';
import { UI_LOCALES } from './bundle';
import { ACCOUNT } from './account';
import { ADMIN } from './admin';
import { CATALOGUE } from './catalogue';
import { CHARTS } from './charts';
import { COMMON } from './common';
import { SIGN_IN } from './sign-in';

const BUNDLES: readonly Bundle[] = [COMMON, CATALOGUE, ACCOUNT, ADMIN, CHARTS, SIGN_IN];

function merge(locale: UiLocale): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const b of BUNDLES) for (const [key, text] of Object.entries(b[locale])) map.set(key, text);
  return map;
}

const MESSAGES: Record<UiLocale, ReadonlyMap<string, string>> = Object.fromEntries(UI_LOCALES.map((l) => [l, merge(l)])) as Record<UiLocale, ReadonlyMap<string, string>>;

export type Translate = (key: string, params?: Record<string, string | number>) => string;

/** The UI language for a site locale: `de-AT` reads German, a locale without strings English. */
export function uiLocale(locale: string): UiLocale {
  const language = locale.split('-')[0].toLowerCase();
  return (UI_LOCALES as readonly string[]).includes(language) ? (language as UiLocale) : 'en';
}

/** Looks up a key (English when the locale lacks it) and fills `{name}` placeholders. */
export function translator(locale: string): Translate {
  const own = MESSAGES[uiLocale(locale)];
  return (key, params) => {
    const text = own.get(key) ?? MESSAGES.en.get(key) ?? key;
    return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
  };
}

/** Every key of every bundle, for the completeness test. */
export function allMessages(): Record<UiLocale, ReadonlyMap<string, string>> {
  return MESSAGES;
}
