import type { BrandingDto } from './dto/branding.dto';
import type { BrandingFields } from './branding.repository';

export const DEFAULT_SITE_NAME = 'Plugin Registry';
export const DEFAULT_PRIMARY_COLOR = '#2563eb';

/** Stored branding (or none) to the public payload; `fallbackSiteName` is the install wizard's name, if any. */
export function toBrandingDto(stored: BrandingFields | null, fallbackSiteName: string | null): BrandingDto {
  return {
    siteName: stored?.siteName ?? fallbackSiteName ?? DEFAULT_SITE_NAME,
    logoUrl: stored?.logoUrl ?? null,
    primaryColor: stored?.primaryColor ?? DEFAULT_PRIMARY_COLOR,
    links: (stored?.links ?? []).map((link) => ({ label: link.label, url: link.url })),
  };
}
