import { ApiProperty } from '@nestjs/swagger';
import { FORGE_TYPES, type ForgeType } from '../../../lib/forge/types';

/** A forge instance people can sign in with: what a sign-in page shows, never its credentials. */
export class ProviderDto {
  @ApiProperty({ example: 'github', description: 'The instance name, as in /auth/<name>/login' })
  name: string;

  @ApiProperty({ enum: FORGE_TYPES })
  type: ForgeType;

  @ApiProperty({ example: 'https://github.com' })
  webUrl: string;

  @ApiProperty({ example: 'GitHub', description: 'A display label: the forge family, and the instance name when it differs' })
  label: string;

  @ApiProperty({ example: '/auth/github/login', description: 'Where a sign-in starts' })
  loginUrl: string;

  @ApiProperty({
    example: 'https://registry.example/auth/github/callback',
    description: "The callback URL to register in the forge's OAuth application",
  })
  callbackUrl: string;
}

export class ProviderListDto {
  @ApiProperty({ type: [ProviderDto], description: 'Configured instances with OAuth credentials, in FORGES order' })
  providers: ProviderDto[];

  @ApiProperty({
    example: 'https://registry.example/auth/{name}/callback',
    description: 'The callback URL an instance named {name} registers at its forge',
  })
  callbackUrlTemplate: string;
}
