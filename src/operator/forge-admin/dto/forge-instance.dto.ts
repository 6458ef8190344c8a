import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { FORGE_TYPES, type ForgeType } from '../../../lib/forge/types';

export const FORGE_NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** A forge instance to add: its family, where it lives, and the OAuth application made there. */
export class AddForgeDto {
  @ApiProperty({
    example: 'corp-gitlab',
    pattern: FORGE_NAME_PATTERN.source,
    description: 'The instance name, as in /auth/<name>/login and the callback URL',
  })
  @IsString()
  @Matches(FORGE_NAME_PATTERN, { message: 'name: lowercase letters, digits and -, starting with a letter (1-40)' })
  name: string;

  @ApiProperty({ enum: FORGE_TYPES })
  @IsIn(FORGE_TYPES as unknown as string[], { message: `type: one of ${FORGE_TYPES.join(', ')}` })
  type: ForgeType;

  @ApiProperty({
    example: 'https://gitlab.corp.example',
    maxLength: 2048,
    description: 'The web address people open (an instance may live under a path)',
  })
  @IsString()
  @MaxLength(2048)
  webUrl: string;

  @ApiPropertyOptional({
    example: 'https://gitlab.corp.example/api/v4',
    maxLength: 2048,
    description:
      'The API root; when left out: https://api.github.com for github.com, <webUrl>/api/v3 for GitHub Enterprise, <webUrl>/api/v4 for GitLab, <webUrl>/api/v1 for Gitea and Forgejo',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  apiUrl?: string;

  @ApiProperty({ maxLength: 255, description: "The OAuth application's client id" })
  @IsString()
  @Length(1, 255)
  clientId: string;

  @ApiProperty({ maxLength: 1024, writeOnly: true, description: "The OAuth application's client secret: stored encrypted, never returned" })
  @IsString()
  @Length(1, 1024)
  clientSecret: string;
}

export const FORGE_SOURCES = ['configuration', 'default', 'stored'] as const;

/** A live forge instance as admins see it: never its client id, client secret or API token. */
export class ForgeInstanceDto {
  @ApiProperty({ example: 'corp-gitlab' })
  name: string;

  @ApiProperty({ enum: FORGE_TYPES })
  type: ForgeType;

  @ApiProperty({ example: 'https://gitlab.corp.example' })
  webUrl: string;

  @ApiProperty({ example: 'https://gitlab.corp.example/api/v4' })
  apiUrl: string;

  @ApiProperty({
    enum: FORGE_SOURCES,
    description:
      'configuration: the FORGES variable (read-only); default: built in while FORGES is unset (an added instance of the same name or web URL takes its place); stored: added by an admin (removable)',
  })
  source: (typeof FORGE_SOURCES)[number];

  @ApiProperty({ description: 'Whether people can sign in with it (OAuth credentials present)' })
  signIn: boolean;

  @ApiProperty({
    example: 'https://registry.example/auth/corp-gitlab/callback',
    description: "The callback URL to register in the forge's OAuth application",
  })
  callbackUrl: string;

  @ApiProperty({ type: Number, nullable: true, description: 'When an admin added it (epoch ms); null for configured instances' })
  createdAt: number | null;
}

export class ForgeInstanceListDto {
  @ApiProperty({ type: [ForgeInstanceDto], description: 'Configured instances first (FORGES order), then stored ones, oldest first' })
  forges: ForgeInstanceDto[];
}
