import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { NoControlCharacters } from '../../../common/validation/no-control-characters';
import { IsHttpUrl } from './validators';

export const MAX_BRANDING_LINKS = 20;

export class BrandingLinkDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Documentation' })
  @IsString()
  @Length(1, 100)
  @NoControlCharacters()
  label: string;

  @ApiProperty({ maxLength: 2048, example: 'https://docs.example.org' })
  @IsString()
  @MaxLength(2048)
  @IsHttpUrl()
  url: string;
}

export class BrandingDto {
  @ApiProperty({ example: 'Acme Plugins', description: "The admin's name, else the install wizard's, else `Plugin Registry`" })
  siteName: string;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.org/logo.svg' })
  logoUrl: string | null;

  @ApiProperty({ example: '#2563eb', pattern: '^#[0-9a-f]{6}$' })
  primaryColor: string;

  @ApiProperty({ type: [BrandingLinkDto] })
  links: BrandingLinkDto[];
}

/** Fields left out keep their value; `null` puts a field back to its default. */
export class UpdateBrandingDto {
  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @NoControlCharacters()
  siteName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2048, description: 'An absolute http(s) URL' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsHttpUrl()
  logoUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#2563eb', pattern: '^#[0-9A-Fa-f]{6}$' })
  @IsOptional()
  @IsString()
  @Matches(/^#[0-9A-Fa-f]{6}$/, { message: 'primaryColor: must be a colour as #rrggbb' })
  primaryColor?: string | null;

  @ApiPropertyOptional({ type: [BrandingLinkDto], nullable: true, maxItems: MAX_BRANDING_LINKS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BRANDING_LINKS)
  @ValidateNested({ each: true })
  @Type(() => BrandingLinkDto)
  links?: BrandingLinkDto[] | null;
}
