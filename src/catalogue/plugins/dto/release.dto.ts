import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { FRESHNESS_DESCRIPTION } from './latest.dto';

export class ReleaseAssetDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: "The registry's download URL (counts the download, then redirects to the asset)" })
  url: string;

  @ApiProperty({ description: 'Bytes actually streamed at ingest' })
  size: number;

  @ApiProperty({
    description:
      'False when the asset was over the hash budget: it is not in the signed list (nor in integrity.assets) and cannot be verified',
  })
  hashed: boolean;
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

  @ApiProperty({
    type: Object,
    nullable: true,
    description: "Build-provenance attestation bundle, as given (a Sigstore bundle is verified at ingest: see the release's `provenance`)",
  })
  attestation: unknown;
}

export class PublishedByDto {
  @ApiProperty({
    enum: ['trusted', 'token', 'webhook'],
    description: 'trusted: a CI job proven by its OIDC ID token (trusted publishing); token: a publisher token; webhook: a release webhook',
  })
  kind: 'trusted' | 'token' | 'webhook';

  @ApiPropertyOptional({ description: 'trusted only: the forge instance' })
  forge?: string;

  @ApiPropertyOptional({ description: 'trusted only: the repository whose CI published it' })
  repository?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'trusted only: the workflow file or CI config path' })
  workflow?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'trusted only: the git ref the CI job ran for' })
  ref?: string | null;
}

/**
 * The provenance check made at ingest, outside the signed list
 * (docs/verifying-downloads.md#build-provenance).
 */
export class ReleaseProvenanceDto {
  @ApiProperty({
    enum: ['verified', 'unverified', 'absent'],
    description:
      'verified: a Sigstore bundle that verified at ingest (signature, certificate chain, log entry or timestamp, the repository CI identity, every asset digest); unverified: an attestation of another format, passed through unchecked; absent: none',
  })
  status: 'verified' | 'unverified' | 'absent';

  @ApiProperty({
    type: String,
    nullable: true,
    description: "verified only: the repository URL the signing certificate names (the plugin's)",
    example: 'https://github.com/acme/app',
  })
  repository: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'verified only: the workflow file (or GitLab CI configuration path) that built it',
    example: '.github/workflows/release.yml',
  })
  workflow: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'verified only: the git ref the build ran at', example: 'refs/tags/v1.2.0' })
  ref: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "verified only: the OIDC issuer that vouched for the CI job (Fulcio's issuer extension)",
  })
  issuer: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'verified only: epoch ms of the trusted time of the signature (transparency log integrated time, else the RFC 3161 timestamp)',
  })
  signedAt: number | null;
}

export class ReleaseIntegrityDto {
  @ApiProperty({
    description: 'JWS compact serialization; header {alg: EdDSA, kid}, payload RFC 8785 {slug, version, manifest_sha256, assets}',
  })
  jws: string;

  @ApiProperty({
    type: [IntegrityAssetDto],
    description:
      "Unsigned copy of the signed payload's assets, member for member and in the same order (assets over the hash budget are not in it); trust only the signed payload",
  })
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

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'The transparency-log entry of the signature in `integrity` (its publish, or its latest re-signing): ask GET /api/log/proof/inclusion?index= for its proof. Null for releases recorded before the log (docs/transparency-log.md)',
  })
  log_index: number | null;

  @ApiProperty({ description: 'Yanked releases leave `latest` and the default list but stay fetchable by version' })
  yanked: boolean;

  @ApiProperty({ type: PublishedByDto })
  publishedBy: PublishedByDto;

  @ApiProperty({
    type: ReleaseProvenanceDto,
    description: 'Additive to the spec: the attestation checked at ingest; the signed list carries the attestation itself, unchanged',
  })
  provenance: ReleaseProvenanceDto;

  @ApiProperty({ type: String, nullable: true })
  yankReason: string | null;

  @ApiProperty()
  prerelease: boolean;

  @ApiProperty({ type: String, nullable: true })
  minRuntimeVersion: string | null;

  @ApiProperty({ description: 'SHA-256 of the RFC 8785 form of the manifest (GET .../manifest serves those bytes)' })
  manifestSha256: string;

  @ApiProperty({ description: 'Downloads counted through the registry (GET on the asset route)' })
  downloads: number;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class LatestReleaseDto extends ReleaseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: `${FRESHNESS_DESCRIPTION}. Here platform is \`"all"\` and asset_sha256 null: it vouches for the release as a whole`,
  })
  freshness: string | null;
}

export class LatestReleaseQueryDto {
  @ApiPropertyOptional({ enum: ['0', '1'], description: '1 lets a prerelease be the latest' })
  @IsOptional()
  @IsIn(['0', '1'], { message: 'prerelease: must be 0 or 1' })
  prerelease?: string;
}
