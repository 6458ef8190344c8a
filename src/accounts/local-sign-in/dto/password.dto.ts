import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../lib/password/password-hash';

export class SetPasswordDto {
  @ApiProperty({
    description: `The new password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not the login`,
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    format: 'password',
  })
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH * 4)
  password: string;

  @ApiPropertyOptional({
    description:
      'The password the account has now: needed to change it, unless this session signed in less than 10 minutes ago (a sign-in link after a forgotten password)',
    format: 'password',
  })
  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH * 4)
  currentPassword?: string;
}

export class PasswordStatusDto {
  @ApiProperty({ description: 'Whether password sign-in is on for this registry (setting signin.password_enabled)' })
  enabled: boolean;

  @ApiProperty({ description: 'Whether this account can have a password (local accounts only)' })
  available: boolean;

  @ApiProperty({ description: 'Whether this account has a password' })
  set: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch milliseconds of the last change, or null' })
  updatedAt: number | null;
}

export class SignInMethodsDto {
  @ApiProperty({ description: 'Whether local accounts may sign in with a password here' })
  password: boolean;

  @ApiProperty({ description: 'Passkey sign-in (always on)' })
  passkey: boolean;
}
