import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageEnvelopeDto, PageQueryDto } from '../../../common/validation/page-query.dto';
import { ListImagesDto } from './images.dto';

export const CATALOGUE_SORTS = ['updated', 'new', 'name', 'featured'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
/** `facets` as a query accepts it: yes or no, as a number or a word. */
export const FACETS_VALUES = ['1', 'true', '0', 'false'] as const;

/** A plugin's deprecation as list items and the detail show it. */
export class DeprecationDto {
  @ApiProperty({ description: 'Why, and what to do instead (1-500 characters)' })
  message: string;

  @ApiProperty({ type: String, nullable: true, description: 'The slug of the plugin to use instead' })
  replacement: string | null;

  @ApiProperty({ description: 'When it was deprecated, epoch ms' })
  since: number;
}

/** The named query parameters of `GET /api/plugins`; `ext.<key>` ones are read beside them. */
export class CatalogueQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Words to find in the name (first), description and tags, category and kind; a word may be a prefix',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(40)
  category?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(30)
  tag?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(40)
  kind?: string;

  @ApiPropertyOptional({ enum: ['1'], description: 'Featured plugins only' })
  @IsOptional()
  @IsIn(['1'], { message: 'featured: must be 1 (or left out)' })
  featured?: string;

  @ApiPropertyOptional({ enum: ['1'], description: 'Verified plugins only' })
  @IsOptional()
  @IsIn(['1'], { message: 'verified: must be 1 (or left out)' })
  verified?: string;

  @ApiPropertyOptional({
    enum: CATALOGUE_SORTS,
    description: 'Default: relevance with search, else updated. Verified plugins lead every sort.',
  })
  @IsOptional()
  @IsIn(CATALOGUE_SORTS)
  sort?: CatalogueSort;

  @ApiPropertyOptional({
    enum: FACETS_VALUES,
    description:
      'With 1 (or true) the page also carries `facets`: counts per value of kind, category, tags and every extension field declared as an enum or a boolean, each over the search and the other filters (what clicking the value would give)',
  })
  @IsOptional()
  @IsIn(FACETS_VALUES, { message: 'facets: must be 1, true, 0 or false (or left out)' })
  facets?: string;
}

/** One value of a facet and how many plugins it would list. */
export class FacetValueDto {
  @ApiProperty({ description: 'The value as a filter takes it (kind=..., tag=..., ext.<key>=...)' })
  value: string;

  @ApiProperty({ description: 'Plugins the page would list with this value chosen instead of the current one' })
  count: number;
}

export class CatalogueItemDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  category: string | null;

  @ApiProperty({ type: String, nullable: true })
  kind: string | null;

  @ApiProperty({ type: [String] })
  tags: string[];

  @ApiProperty({ type: String, nullable: true })
  license: string | null;

  @ApiProperty({ type: String, nullable: true })
  icon: string | null;

  @ApiProperty({
    type: ListImagesDto,
    description: 'Pictures served by this registry (additive to the spec): the icon, fetched and re-encoded at publish time',
  })
  images: ListImagesDto;

  @ApiProperty({ type: String, nullable: true })
  latestVersion: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Set when only prereleases exist (or a newer prerelease is live)' })
  latestPrerelease: string | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;

  @ApiProperty({ description: 'Epoch ms' })
  updatedAt: number;

  @ApiProperty()
  downloads: number;

  @ApiProperty()
  featured: boolean;

  @ApiProperty()
  verified: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms' })
  verifiedAt: number | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  extensions: Record<string, unknown> | null;

  @ApiProperty()
  repoUrl: string;

  @ApiProperty({
    type: DeprecationDto,
    nullable: true,
    description: 'Null unless the owners deprecated the plugin; a deprecated plugin sorts after every other one in each sort',
  })
  deprecated: DeprecationDto | null;
}

@ApiExtraModels(FacetValueDto)
export class CataloguePageDto extends PageEnvelopeDto {
  @ApiProperty({ type: [CatalogueItemDto] })
  plugins: CatalogueItemDto[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(FacetValueDto) } },
    description:
      'Only with facets=1. By dimension (`kind`, `category`, `tags`, `ext.<key>`): the values by count, most first (then by value), at most 20 (tags 30); values no plugin would give are left out except the selected one. Left out (and the page is Cache-Control: no-store) while the catalogue index is first built after a start',
  })
  facets?: Record<string, FacetValueDto[]>;
}
