import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import semver from 'semver';
import { Satisfies } from '../../../common/validation/satisfies';
import { normalizeArch, normalizeOs } from '../../../lib/platform/platform';

/** The `freshness` member, as both `latest` routes document it. */
export const FRESHNESS_DESCRIPTION =
  'Signed freshness statement: a compact JWS (typ `registry-freshness+jws`, kid from /.well-known/registry-key.json) over `{slug, version, platform, asset_sha256, issued_at, expires_at, tree_size}`; issued anew every hour, or at half its lifetime (FRESHNESS_LIFETIME_SECONDS) when shorter. Also sent as the `Registry-Freshness` header. Null on a mirror, which signs nothing';

export class LatestQueryDto {
  @ApiPropertyOptional({
    example: 'linux',
    description: 'linux, darwin (macos, mac, osx) or win32 (windows, win); without os and arch the User-Agent decides',
  })
  @IsOptional()
  @IsString()
  @Satisfies(
    'knownOs',
    (v) => typeof v === 'string' && normalizeOs(v) !== null,
    () => 'os: must be linux, darwin (macos, mac, osx) or win32 (windows, win)',
  )
  os?: string;

  @ApiPropertyOptional({ example: 'x64', description: 'x64 (amd64, x86_64), arm64 (aarch64), ia32 (x86, i386) or armhf (armv7)' })
  @IsOptional()
  @IsString()
  @Satisfies(
    'knownArch',
    (v) => typeof v === 'string' && normalizeArch(v) !== null,
    () => 'arch: must be x64 (amd64, x86_64), arm64 (aarch64), ia32 (x86, i386) or armhf (armv7)',
  )
  arch?: string;

  @ApiPropertyOptional({ enum: ['0', '1'], description: '1 lets a prerelease be the latest' })
  @IsOptional()
  @IsIn(['0', '1'], { message: 'prerelease: must be 0 or 1' })
  prerelease?: string;

  @ApiPropertyOptional({
    example: '2.4.1',
    description: "The host runtime's version: releases whose min_runtime_version excludes it are passed over",
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  @Satisfies(
    'semverVersion',
    (v) => typeof v === 'string' && semver.valid(v) !== null,
    () => 'runtime: must be a semantic version such as 2.4.1',
  )
  runtime?: string;
}

export class PlatformAssetDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: "The registry's download URL (counts the download, then redirects)" })
  download_url: string;

  @ApiProperty()
  size: number;

  @ApiProperty({ type: String, nullable: true, description: 'Hex SHA-256; null for an asset over the hash budget' })
  sha256: string | null;
}

export class SkippedReleaseDto {
  @ApiProperty()
  version: string;

  @ApiProperty({ enum: ['yanked', 'prerelease', 'runtime'] })
  reason: string;

  @ApiPropertyOptional({ description: 'For reason runtime: the min_runtime_version the runtime does not satisfy' })
  range?: string;
}

export class LatestDto {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  version: string;

  @ApiProperty({ description: 'Where to download the chosen asset' })
  download_url: string;

  @ApiProperty({ type: String, nullable: true, description: 'The platform key matched, or null for the universal fallback' })
  platform: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/PlatformAssetDto' },
    description: 'Every asset of the release by platform key',
  })
  platforms: Record<string, PlatformAssetDto>;

  @ApiProperty({ type: [SkippedReleaseDto], description: 'Newer releases passed over, and why' })
  skipped: SkippedReleaseDto[];

  @ApiProperty({ type: String, nullable: true, description: FRESHNESS_DESCRIPTION })
  freshness: string | null;
}
