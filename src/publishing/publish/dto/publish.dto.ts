import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Satisfies } from '../../../common/validation/satisfies';
import { MANIFEST_SOURCES, MAX_MANIFEST_BYTES } from '../../../lib/manifest';

const VERSION_WITH_OPTIONAL_V = /^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

const MaxUtf8Bytes = (max: number) =>
  Satisfies(
    'maxUtf8Bytes',
    (v) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') <= max,
    (p) => `${p}: must be at most ${max} bytes of UTF-8`,
  );

/** Any absolute http(s) URL as WHATWG parses it; which addresses may be fetched is the fetch policy's call. */
function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
const IsHttpUrl = () => Satisfies('isHttpUrl', isHttpUrl, (p) => `${p}: must be an absolute http(s) URL`);

const NoControlCharacters = () =>
  Satisfies(
    'noControlCharacters',
    (v) => typeof v === 'string' && ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    (p) => `${p}: must not contain control characters`,
  );

const UniqueNames = () =>
  Satisfies(
    'uniqueNames',
    (v) => !Array.isArray(v) || new Set(v.map((a) => (a as { name?: unknown })?.name)).size === v.length,
    (p) => `${p}: asset names must be unique within a release`,
  );

export class PublishAssetDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'tool-linux-x64.tar.gz' })
  @IsString()
  @Length(1, 255)
  @Matches(/^[^/\\]+$/, { message: 'name: must not contain / or \\' })
  @NoControlCharacters()
  name: string;

  @ApiProperty({ example: 'https://github.com/acme/tool/releases/download/v1.0.0/tool-linux-x64.tar.gz' })
  @IsString()
  @MaxLength(2048)
  @IsHttpUrl()
  url: string;

  @ApiPropertyOptional({ description: 'Expected hex SHA-256; a mismatch with what was fetched is 422' })
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'sha256: must be 64 hex characters' })
  sha256?: string;

  @ApiPropertyOptional({ description: 'Expected size in bytes; a mismatch is 422' })
  @IsOptional()
  @IsInt()
  @Min(0)
  size?: number;
}

export class PublishDto {
  @ApiProperty({ description: `Raw YAML or JSON manifest text, at most ${MAX_MANIFEST_BYTES} bytes` })
  @IsString()
  @MaxUtf8Bytes(MAX_MANIFEST_BYTES)
  manifest: string;

  @ApiProperty({ enum: MANIFEST_SOURCES, example: 'plugin.yaml' })
  @IsIn(MANIFEST_SOURCES)
  manifestSource: string;

  @ApiProperty({ example: 'v1.2.0', description: 'SemVer, with or without a leading v; must equal the manifest version' })
  @IsString()
  @MaxLength(41)
  @Matches(VERSION_WITH_OPTIONAL_V, { message: 'version: must be a semantic version, optionally with a leading v' })
  version: string;

  @ApiProperty({ type: [PublishAssetDto], minItems: 1, maxItems: 32 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(32)
  @UniqueNames()
  @ValidateNested({ each: true })
  @Type(() => PublishAssetDto)
  assets: PublishAssetDto[];

  @ApiPropertyOptional({ description: 'Forge repository URL; required on the first push (the auto-claim anchor)' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  repoUrl?: string;

  @ApiPropertyOptional({
    type: Object,
    description:
      'Build-provenance attestation, kept as given in the signed list. A Sigstore bundle is verified at ingest (422 provenance-invalid when it does not verify); any other object is passed through as unverified',
  })
  @IsOptional()
  @IsObject()
  attestation?: Record<string, unknown>;
}

export class PublishResultDto {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  version: string;

  @ApiProperty({ description: 'True on the push that created (claimed) the slug' })
  claimed: boolean;

  @ApiProperty({ type: [String], description: 'Problems that did not stop the release, e.g. a README that could not be read' })
  warnings: string[];
}

export class YankDto {
  @ApiProperty({ example: '1.2.0' })
  @IsString()
  @MaxLength(41)
  @Matches(VERSION_WITH_OPTIONAL_V, { message: 'version: must be a semantic version, optionally with a leading v' })
  version: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;

  @ApiPropertyOptional({ description: 'true un-yanks the release' })
  @IsOptional()
  @IsBoolean()
  undo?: boolean;
}

export class YankResultDto {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  version: string;

  @ApiProperty()
  yanked: boolean;
}
