import { ApiProperty } from '@nestjs/swagger';

/** One public signing key (RFC 8037 OKP JWK). Never carries a private member. */
export class PublicJwkDto {
  @ApiProperty({
    description: 'RFC 7638 JWK thumbprint (SHA-256, base64url); the JWS header names the signing key by it.',
    example: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  })
  kid: string;

  @ApiProperty({ enum: ['OKP'] })
  kty: 'OKP';

  @ApiProperty({ enum: ['Ed25519'] })
  crv: 'Ed25519';

  @ApiProperty({
    description: 'The 32-byte Ed25519 public key, base64url without padding.',
    example: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  })
  x: string;

  @ApiProperty({ enum: ['EdDSA'] })
  alg: 'EdDSA';

  @ApiProperty({ enum: ['sig'] })
  use: 'sig';
}

/** The key set (JWKS) releases are verified against: the current key, the previous one, and a key being drained. */
export class KeySetDto {
  @ApiProperty({
    type: [PublicJwkDto],
    description:
      'The current key first, then the previous key (absent until the first rotation), then the key a rotation displaced while the releases it signed are re-signed with the current key (beyond the spec, which keeps two keys).',
  })
  keys: PublicJwkDto[];
}
