import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../../lib/password/password-hash';

export class PasswordSignInDto {
  @ApiProperty({ description: 'The login of a local account', example: 'admin', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  login: string;

  @ApiProperty({ description: 'Its password', minLength: 1, maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @Length(1, PASSWORD_MAX_LENGTH)
  password: string;

  @ApiPropertyOptional({
    description: 'HTML form posts only: the local path to go to once signed in (default /account)',
    example: '/admin',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  next?: string;
}
