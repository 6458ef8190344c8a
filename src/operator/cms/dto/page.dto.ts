import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { AsLanguageTag, IsLanguageTag } from '../../../common/validation/language-tag';
import { NoControlCharacters } from '../../../common/validation/no-control-characters';
import { IsLocaleCode } from '../../../platform/site/dto/validators';

export const PAGE_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Well under the README renderer's cut, so a page is always rendered whole. */
export const PAGE_MARKDOWN_MAX_LENGTH = 100_000;
const LOCALE_PROPERTY = { pattern: '^[a-z]{2}(-[A-Z]{2})?$', example: 'en' };

export class PageDto {
  @ApiProperty({ example: 'about' })
  slug: string;

  @ApiProperty({ example: 'About this registry' })
  title: string;

  @ApiProperty({ description: 'The markdown rendered and sanitized (no scripts, no raw HTML; relative links dropped)' })
  html: string;

  @ApiProperty({ ...LOCALE_PROPERTY, description: 'The locale served, after resolution' })
  locale: string;

  @ApiProperty({ description: 'Epoch ms' })
  updatedAt: number;
}

export class PageQueryDto {
  @ApiPropertyOptional({
    example: 'pt-BR',
    maxLength: 64,
    description:
      'Preferred locale, a BCP 47 tag (any letter case, `_` for `-`): the tag, then shorter forms of it (zh-Hant-TW, zh-Hant, zh), then another variant of its language, then the default locale, then the first available',
  })
  @IsOptional()
  @IsString()
  @IsLanguageTag()
  locale?: string;
}

/** Names a stored page: any letter case and `_` for `-` find it (`?locale=PT_br` is the pt-BR page). */
export class PageLocaleQueryDto {
  @ApiProperty(LOCALE_PROPERTY)
  @AsLanguageTag()
  @IsString()
  @IsLocaleCode()
  locale: string;
}

export class UpdatePageDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'About this registry' })
  @IsString()
  @Length(1, 200)
  @NoControlCharacters()
  title: string;

  @ApiProperty({ minLength: 1, maxLength: PAGE_MARKDOWN_MAX_LENGTH, description: 'CommonMark; raw HTML is shown as text' })
  @IsString()
  @Length(1, PAGE_MARKDOWN_MAX_LENGTH)
  markdown: string;

  @ApiProperty({ description: 'Unpublished pages are 404 to the public' })
  @IsBoolean()
  published: boolean;
}

export class CreatePageDto extends UpdatePageDto {
  @ApiProperty({ pattern: PAGE_SLUG_PATTERN.source, example: 'about' })
  @IsString()
  @Matches(PAGE_SLUG_PATTERN, { message: 'slug: lowercase letters, digits and dashes (1-64), starting with a letter or digit' })
  slug: string;

  @ApiProperty(LOCALE_PROPERTY)
  @IsString()
  @IsLocaleCode()
  locale: string;
}

export class AdminPageDto {
  @ApiProperty({ example: 'about' })
  slug: string;

  @ApiProperty(LOCALE_PROPERTY)
  locale: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  markdown: string;

  @ApiProperty()
  published: boolean;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;

  @ApiProperty({ description: 'Epoch ms' })
  updatedAt: number;
}

export class AdminPageListDto {
  @ApiProperty({ type: [AdminPageDto], description: 'Every page in every locale, published or not, by slug then locale' })
  pages: AdminPageDto[];
}
