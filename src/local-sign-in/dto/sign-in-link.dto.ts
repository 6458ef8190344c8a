import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class SignInLinkDto {
  @ApiProperty({ description: 'The token of a link printed by `registry users sign-in-link` (its `token` query parameter)' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class SignInLinkQueryDto {
  @ApiPropertyOptional({ description: 'The one-time token the link carries' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  token?: string;
}
