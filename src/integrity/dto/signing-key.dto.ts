import { ApiProperty } from '@nestjs/swagger';

/** A signing key as the admin surface lists it (no key material beyond the kid). */
export class SigningKeyDto {
  @ApiProperty({ description: 'RFC 7638 JWK thumbprint.' })
  kid: string;

  @ApiProperty({ enum: ['current', 'previous', 'retired'], description: 'current signs; previous still verifies; retired has left the key set.' })
  state: 'current' | 'previous' | 'retired';

  @ApiProperty({ description: 'Creation time, epoch milliseconds.' })
  createdAt: number;

  @ApiProperty({ type: Number, nullable: true, description: 'When a rotation displaced the key from the key set, epoch milliseconds.' })
  retiredAt: number | null;
}

export class SigningKeyListDto {
  @ApiProperty({ type: [SigningKeyDto] })
  keys: SigningKeyDto[];
}

/** What a rotation did. */
export class KeyRotationDto {
  @ApiProperty({ description: 'The new current key.' })
  kid: string;

  @ApiProperty({ type: String, nullable: true, description: 'The key that became previous.' })
  previousKid: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The key that left the key set.' })
  retiredKid: string | null;
}
