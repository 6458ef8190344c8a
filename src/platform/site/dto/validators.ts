import { Satisfies } from '../../../common/validation/satisfies';
import { SPEC_MANIFEST_FIELDS, type MapRule } from '../../../lib/manifest/rules';

/** Locale codes as the manifest writes them (`readmes` keys): `en`, `pt-BR`. */
export const LOCALE_CODE_PATTERN = new RegExp((SPEC_MANIFEST_FIELDS.readmes as MapRule).keyPattern.source);

export function isLocaleCode(value: unknown): value is string {
  return typeof value === 'string' && LOCALE_CODE_PATTERN.test(value);
}

/** An absolute http(s) URL as WHATWG parses it, without credentials. */
export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const IsHttpUrl = () => Satisfies('isHttpUrl', isHttpUrl, (p) => `${p}: must be an absolute http(s) URL without credentials`);

export const IsLocaleCode = () => Satisfies('isLocaleCode', isLocaleCode, (p) => `${p}: must be a locale code such as en or pt-BR`);
