import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PluginImagesDto } from './images.dto';
import { IsLanguageTag } from '../../../common/validation/language-tag';
import { CatalogueItemDto } from './catalogue.dto';
import { PublishedByDto } from './release.dto';

export class PluginDetailQueryDto {
  @ApiPropertyOptional({
    example: 'pt-BR',
    maxLength: 64,
    description:
      'README language, a BCP 47 tag (any letter case, `_` for `-`): the tag, then shorter forms of it (zh-Hant-TW, zh-Hant, zh), then another variant of its language, then en, then the first available',
  })
  @IsOptional()
  @IsString()
  @IsLanguageTag()
  locale?: string;
}

export class PublicOwnerDto {
  @ApiProperty()
  login: string;

  @ApiProperty({ description: 'The forge instance the owner signs in with, or local' })
  instance: string;
}

export class ReleaseSummaryDto {
  @ApiProperty()
  version: string;

  @ApiProperty()
  prerelease: boolean;

  @ApiProperty()
  yanked: boolean;

  @ApiProperty({ type: String, nullable: true })
  yankReason: string | null;

  @ApiProperty({ type: PublishedByDto })
  publishedBy: PublishedByDto;

  @ApiProperty({ type: String, nullable: true })
  minRuntimeVersion: string | null;

  @ApiProperty()
  downloads: number;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The transparency-log entry of the release's current signature (docs/transparency-log.md); null before the log",
  })
  log_index: number | null;
}

/**
 * The full plugin (spec "Plugin (as listed and as detailed)",
 * docs/decisions.md#catalogue-search-detail-and-the-latest-release): a list item and more.
 */
export class PluginDetailDto extends CatalogueItemDto {
  @ApiProperty({ description: 'The claimer proved admin rights on the repository through its forge' })
  repoVerified: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid', description: 'Admins only: who verified it' })
  verifiedBy?: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "The latest manifest's fields" })
  metadata: Record<string, unknown>;

  @ApiProperty({ type: [PublicOwnerDto] })
  owners: PublicOwnerDto[];

  @ApiProperty({ type: [ReleaseSummaryDto], description: 'Newest first by SemVer, yanked ones marked' })
  releases: ReleaseSummaryDto[];

  @ApiProperty({
    type: PluginImagesDto,
    description:
      "The shown release's icon and screenshots served by this registry (additive to the spec; the manifest's URLs stay in `icon` and `metadata.screenshots`)",
  })
  declare images: PluginImagesDto;

  @ApiProperty({ type: String, nullable: true, description: "The latest release's README as sanitized HTML, in the chosen language" })
  readmeHtml: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The language chosen; null for a single-language README' })
  readmeLocale: string | null;

  @ApiProperty({ type: [String], description: 'Languages the README has; empty for a single-language README' })
  readmeAvailableLocales: string[];
}
