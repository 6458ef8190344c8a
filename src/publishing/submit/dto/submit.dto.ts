import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class SubmitDto {
  @ApiProperty({ example: 'https://github.com/acme/tool', description: 'A repository on a forge you signed in with, which you administer' })
  @IsString()
  @MaxLength(2048)
  repoUrl: string;
}

export class SubmitResultDto {
  @ApiProperty({ description: "The slug claimed for you: the manifest's name" })
  slug: string;

  @ApiProperty({ example: 'https://registry.example/api/webhooks/release' })
  webhookUrl: string;

  @ApiProperty({
    description: 'The webhook secret (64 hex characters), shown this once, for manual setup when the hook could not be installed',
  })
  webhookSecret: string;

  @ApiProperty({ description: 'Whether the registry installed the release webhook on the forge itself' })
  webhookInstalled: boolean;
}
