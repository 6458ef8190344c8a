import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Length } from 'class-validator';

export class PasskeyOptionsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON): hand them to the browser's navigator.credentials (for instance with @simplewebauthn/browser). The challenge is good for one answer within 5 minutes.",
  })
  options: Record<string, unknown>;
}

export class PasskeyAnswerDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The browser's answer as JSON (AuthenticationResponseJSON: id, rawId, type, response.clientDataJSON, authenticatorData, signature, userHandle)",
  })
  @IsObject()
  response: Record<string, unknown>;
}

export class PasskeyRegistrationDto extends PasskeyAnswerDto {
  @ApiPropertyOptional({ description: 'A name to tell it apart (default: "Passkey" and the date)', maxLength: 100, example: 'Laptop' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;
}

export class PasskeyRenameDto {
  @ApiProperty({ maxLength: 100, example: 'Phone' })
  @IsString()
  @Length(1, 100)
  name: string;
}

export class PasskeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Laptop' })
  name: string;

  @ApiProperty({ description: 'Whether the passkey is synced between devices (multi-device) and backed up' })
  synced: boolean;

  @ApiProperty({ description: 'Epoch milliseconds' })
  createdAt: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch milliseconds of the last sign-in with it, or null' })
  lastUsedAt: number | null;
}

export class PasskeyListDto {
  @ApiProperty({ type: [PasskeyDto] })
  passkeys: PasskeyDto[];
}
