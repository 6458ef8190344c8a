import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsString, ValidateIf } from 'class-validator';
import { SatisfiesEach } from '../../../common/validation/satisfies';
import { IsLocaleCode, isLocaleCode } from './validators';

export const MAX_SITE_LOCALES = 50;
const LOCALE_EXAMPLE = { pattern: '^[a-z]{2}(-[A-Z]{2})?$', example: 'pt-BR' };

export class I18nDto {
  @ApiProperty({ ...LOCALE_EXAMPLE, example: 'en', description: 'One of `locales`' })
  defaultLocale: string;

  @ApiProperty({ type: [String], example: ['en', 'de', 'pt-BR'], description: 'Enabled languages, in the order the site offers them' })
  locales: string[];
}

/** Fields left out keep their value; the default must end up among the locales. */
export class UpdateI18nDto {
  @ApiPropertyOptional(LOCALE_EXAMPLE)
  @ValidateIf((_object, value) => value !== undefined)
  @IsString()
  @IsLocaleCode()
  defaultLocale?: string;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: MAX_SITE_LOCALES, uniqueItems: true, example: ['en', 'de', 'pt-BR'] })
  @ValidateIf((_object, value) => value !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SITE_LOCALES)
  @ArrayUnique()
  @SatisfiesEach('localeCodes', (item) => (isLocaleCode(item) ? null : 'must be a locale code such as en or pt-BR'))
  locales?: string[];
}
