import { ApiProperty } from '@nestjs/swagger';
import { SIGNING_KEY_STATES, type SigningKeyState } from '../signing-key.types';

/** A signing key as the admin surface lists it (no key material beyond the kid). */
export class SigningKeyDto {
  @ApiProperty({ description: 'RFC 7638 JWK thumbprint.' })
  kid: string;

  @ApiProperty({
    enum: SIGNING_KEY_STATES,
    description:
      'current signs; previous still verifies; draining was displaced by a rotation and stays in the key set until every release it signed is re-signed with the current key; retired has left the key set.',
  })
  state: SigningKeyState;

  @ApiProperty({ description: 'Creation time, epoch milliseconds.' })
  createdAt: number;

  @ApiProperty({ type: Number, nullable: true, description: 'When the key left the key set, epoch milliseconds.' })
  retiredAt: number | null;

  @ApiProperty({
    description:
      'Releases still signed by this key that wait to be re-signed with the current key (draining and retired keys; 0 otherwise).',
  })
  pending: number;

  @ApiProperty({ description: 'Releases of this key that were not re-signed because their stored signature does not verify.' })
  failed: number;

  @ApiProperty({ description: 'Releases re-signed away from this key so far.' })
  resigned: number;
}

export class SigningKeyListDto {
  @ApiProperty({ type: [SigningKeyDto] })
  keys: SigningKeyDto[];
}

/** A key an earlier rotation left draining. */
export class DrainingKeyDto {
  @ApiProperty()
  kid: string;

  @ApiProperty({ description: 'Releases it signed that are still to be re-signed.' })
  pending: number;
}

/** What a rotation did. */
export class KeyRotationDto {
  @ApiProperty({ description: 'The new current key.' })
  kid: string;

  @ApiProperty({ type: String, nullable: true, description: 'The key that became previous.' })
  previousKid: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key that was previous and now drains: it stays in the key set until its releases are re-signed.',
  })
  drainingKid: string | null;

  @ApiProperty({ type: [String], description: 'Keys that left the key set: a drained key, or a previous key that signed no release.' })
  retiredKids: string[];

  @ApiProperty({
    description: 'Releases signed by the draining key that are still to be re-signed (in the background, or by `registry keys resign`).',
  })
  pending: number;

  @ApiProperty({
    type: () => DrainingKeyDto,
    isArray: true,
    description:
      'Keys an earlier rotation left draining: the rotation does not wait for them, they keep draining and stay in the key set until their releases are re-signed.',
  })
  stillDraining: DrainingKeyDto[];
}
