import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class SignInLinkDto {
  @ApiProperty({ description: 'The token of a link printed by `registry users sign-in-link` (its `token` query parameter)' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class SignInLinkFormDto {
  @ApiPropertyOptional({ description: 'The one-time token the link carries (its `token` query parameter)' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  token?: string;
}
