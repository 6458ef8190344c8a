import { createHash } from 'node:crypto';
import { textOn } from './colour';
import { escapeHtml } from './html';

export interface FaviconBranding {
  siteName: string;
  primaryColor: string;
  logoUrl: string | null;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * The built-in icon, drawn from the branding: the site name's first letter on the brand colour,
 * as SVG (every current browser takes an SVG favicon).
 */
export function defaultFavicon(branding: Pick<FaviconBranding, 'siteName' | 'primaryColor'>): string {
  const colour = HEX_COLOR.test(branding.primaryColor) ? branding.primaryColor : '#2563eb';
  const letter = Array.from(branding.siteName.trim())[0]?.toLocaleUpperCase('en') ?? 'R';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${colour}"/><text x="32" y="45" font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="38" font-weight="700" text-anchor="middle" fill="${textOn(colour)}">${escapeHtml(letter)}</text></svg>`;
}

/** A short hash of what the icon is made from: the `?v=` of its link, so a branding change shows at once. */
export function faviconVersion(branding: FaviconBranding, logoIsOwn: boolean): string {
  const source = logoIsOwn ? `logo:${branding.logoUrl}` : `drawn:${branding.siteName}:${branding.primaryColor}`;
  return createHash('sha256').update(source).digest('hex').slice(0, 12);
}
