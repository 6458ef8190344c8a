import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../../lib/scopes/scopes';
import { PENDING_PUBLISHER_STATUSES, type PendingPublisherStatus } from '../entities/pending-publisher.entity';

// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;

/** What identifies a CI job: shared by trusted publishers of a plugin and pending publishers. */
export class PublisherIdentityDto {
  @ApiProperty({ example: 'github', description: 'A forge instance of FORGES that has an oidcIssuer' })
  @IsString()
  @Length(1, 40)
  forge: string;

  @ApiProperty({ example: 'acme/tool', description: 'The repository path on the instance (owner/repo, or group/sub/project on GitLab)' })
  @IsString()
  @Length(1, 512)
  repository: string;

  @ApiPropertyOptional({
    example: '123456789',
    description:
      "Optional, and never stored as sent: the registry reads the forge's immutable repository id from its API (it keeps a re-created repository of the same path out). " +
      'When given it must be that id, else 422 repository-id-mismatch; older clients that send it keep working.',
  })
  @IsOptional()
  @Matches(/^[0-9]{1,20}$/, { message: 'repositoryId: must be the numeric repository id' })
  repositoryId?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '.github/workflows/release.yml',
    description: 'Only this workflow file (GitHub, Gitea, Forgejo) or CI config path (GitLab), relative to the repository',
  })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  @Matches(NO_CONTROL, { message: 'workflow: must not contain control characters' })
  workflow?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'refs/tags/v*',
    description: 'Only git refs matching this pattern (`*` matches any run of characters)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  @Matches(/^refs\/[^\s]+$/, { message: 'ref: must be a full git ref pattern such as refs/tags/v* or refs/heads/main' })
  ref?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'release',
    description: 'Only jobs running in this deployment environment',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  @Matches(NO_CONTROL, { message: 'environment: must not contain control characters' })
  environment?: string | null;
}

export class CreateTrustedPublisherDto extends PublisherIdentityDto {
  @ApiPropertyOptional({ description: 'Tokens minted from it may also yank releases (yank:<slug>); false by default' })
  @IsOptional()
  @IsBoolean()
  allowYank?: boolean;
}

export class CreatePendingPublisherDto extends PublisherIdentityDto {
  @ApiProperty({ example: 'my-plugin', description: 'The slug to claim at the first matching push; it must not exist yet' })
  @IsString()
  @Length(1, SLUG_MAX_LENGTH)
  @Matches(SLUG_PATTERN, { message: `slug: must match ${SLUG_PATTERN.source}` })
  slug: string;
}

export class PublisherIdentityViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  forge: string;

  @ApiProperty()
  repository: string;

  @ApiProperty()
  repositoryId: string;

  @ApiProperty({ description: "The repository's web URL on the instance" })
  repoUrl: string;

  @ApiProperty({ type: String, nullable: true })
  workflow: string | null;

  @ApiProperty({ type: String, nullable: true })
  ref: string | null;

  @ApiProperty({ type: String, nullable: true })
  environment: string | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class TrustedPublisherDto extends PublisherIdentityViewDto {
  @ApiProperty()
  allowYank: boolean;
}

export class TrustedPublisherListDto {
  @ApiProperty({ type: [TrustedPublisherDto] })
  trustedPublishers: TrustedPublisherDto[];
}

export class PendingPublisherDto extends PublisherIdentityViewDto {
  @ApiProperty()
  slug: string;

  @ApiProperty({
    enum: PENDING_PUBLISHER_STATUSES,
    description:
      "active claims the slug at the first matching push; displaced lost the repository to its owner's registration (made with proof of control) and claims nothing",
  })
  status: PendingPublisherStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why the entry is not active' })
  statusReason: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms of the last status change' })
  statusChangedAt: number | null;
}

export class PendingPublisherListDto {
  @ApiProperty({ type: [PendingPublisherDto] })
  pendingPublishers: PendingPublisherDto[];
}
