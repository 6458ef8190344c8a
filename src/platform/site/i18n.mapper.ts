import type { I18nDto } from './dto/i18n.dto';
import type { SiteLanguages } from './i18n.repository';

/** Until an admin chooses: English only. */
export const DEFAULT_SITE_LANGUAGES: Readonly<SiteLanguages> = { defaultLocale: 'en', locales: ['en'] };

export function toI18nDto(languages: Readonly<SiteLanguages>): I18nDto {
  return { defaultLocale: languages.defaultLocale, locales: [...languages.locales] };
}
