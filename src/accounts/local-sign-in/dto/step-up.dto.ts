import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../../lib/password/password-hash';

/** One of the two: a passkey's answer to POST /api/auth/me/step-up/options, or the current password. */
export class StepUpDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "The browser's answer (AuthenticationResponseJSON) to the options of POST /api/auth/me/step-up/options, from one of your own passkeys",
  })
  @IsOptional()
  @IsObject()
  passkey?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Your current password (local accounts that have one)', format: 'password' })
  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH * 4)
  currentPassword?: string;
}
