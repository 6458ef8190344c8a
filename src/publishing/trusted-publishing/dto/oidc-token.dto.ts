import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class OidcTokenRequestDto {
  @ApiProperty({ description: "The CI job's OIDC ID token (a JWT) whose audience is this registry" })
  @IsString()
  @Length(1, 16_384)
  token: string;
}

export class OidcTokenResultDto {
  @ApiProperty({ description: 'A publisher token (prt_...) for the matching plugins only; only its hash is stored' })
  token: string;

  @ApiProperty({ description: 'Epoch ms: 15 minutes after the exchange' })
  expiresAt: number;

  @ApiProperty({ type: [String], example: ['publish:my-plugin'] })
  scopes: string[];
}
