import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CI_FORGES, type CiAuth, type CiForge } from './template-values';

const AUTHS: CiAuth[] = ['trusted', 'token'];

export class CiTemplateQueryDto {
  @ApiPropertyOptional({
    enum: AUTHS,
    description:
      'How the publish job authenticates: trusted publishing (default; GitHub Actions and GitLab CI) or a publisher token in REGISTRY_TOKEN. Forgejo/Gitea templates always use a token',
  })
  @IsOptional()
  @IsIn(AUTHS, { message: 'auth: must be trusted or token' })
  auth?: CiAuth;
}

export class CiTemplateDto {
  @ApiProperty({ enum: CI_FORGES, description: 'github: GitHub Actions; gitlab: GitLab CI; forgejo: Forgejo and Gitea Actions' })
  forge: CiForge;

  @ApiProperty({ example: 'GitHub Actions' })
  title: string;

  @ApiProperty({ example: 'github-actions.yml', description: 'Served as /cli/ci/<file>' })
  file: string;

  @ApiProperty({ example: '.github/workflows/release.yml', description: "Where it goes in the plugin's repository" })
  path: string;

  @ApiProperty({ enum: AUTHS })
  auth: CiAuth;

  @ApiProperty({ description: "The workflow, YAML, with this registry's BASE_URL and the CLI's SHA-256 filled in" })
  content: string;
}

export class CiTemplatesDto {
  @ApiProperty({ description: 'SHA-256 (hex) of GET /cli/registry.js as served now: the pin in every template' })
  cliSha256: string;

  @ApiProperty({ type: [CiTemplateDto], description: 'One per CI system' })
  templates: CiTemplateDto[];
}
