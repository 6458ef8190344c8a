import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ReleaseAssetDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: "The registry's download URL (counts the download, then redirects to the asset)" })
  url: string;

  @ApiProperty()
  size: number;
}

export class IntegrityAssetDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'hex SHA-256' })
  sha256: string;

  @ApiProperty()
  size: number;

  @ApiProperty()
  contentType: string;

  @ApiProperty({ example: 'x64' })
  arch: string;

  @ApiProperty({ example: 'linux' })
  os: string;

  @ApiProperty({ type: Object, nullable: true, description: 'Build-provenance attestation bundle, passed through unverified' })
  attestation: unknown;
}

export class ReleaseIntegrityDto {
  @ApiProperty({ description: 'JWS compact serialization; header {alg: EdDSA, kid}, payload RFC 8785 {slug, version, manifest_sha256, assets}' })
  jws: string;

  @ApiProperty({ type: [IntegrityAssetDto], description: 'Unsigned copy of the signed list; trust only the signed payload' })
  assets: IntegrityAssetDto[];
}

export class ReleaseDto {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  version: string;

  @ApiProperty({ type: [ReleaseAssetDto] })
  assets: ReleaseAssetDto[];

  @ApiPropertyOptional({ type: ReleaseIntegrityDto, description: 'Absent on legacy releases ingested before signing existed' })
  integrity?: ReleaseIntegrityDto;

  @ApiProperty({ description: 'Yanked releases leave `latest` and the default list but stay fetchable by version' })
  yanked: boolean;

  @ApiProperty({ type: String, nullable: true })
  yankReason: string | null;

  @ApiProperty()
  prerelease: boolean;

  @ApiProperty({ type: String, nullable: true })
  minRuntimeVersion: string | null;

  @ApiProperty({ description: 'SHA-256 of the RFC 8785 form of the manifest (GET .../manifest serves those bytes)' })
  manifestSha256: string;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}
