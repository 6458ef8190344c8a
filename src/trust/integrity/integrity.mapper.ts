import type { KeySet, PublicJwk } from '../../lib/integrity';
import type { KeySetDto, PublicJwkDto } from './dto/key-set.dto';
import type { KeyRotationDto, SigningKeyDto, SigningKeyListDto } from './dto/signing-key.dto';
import type { KeyRotation, SigningKeyInfo } from './signing-key.types';

/** Exactly the six public members, whatever else the source object carries. */
export function toPublicJwkDto(jwk: PublicJwk): PublicJwkDto {
  return { kid: jwk.kid, kty: 'OKP', crv: 'Ed25519', x: jwk.x, alg: 'EdDSA', use: 'sig' };
}

export function toKeySetDto(keySet: KeySet): KeySetDto {
  return { keys: keySet.keys.map(toPublicJwkDto) };
}

export function toSigningKeyDto(key: SigningKeyInfo): SigningKeyDto {
  return {
    kid: key.kid,
    state: key.state,
    createdAt: key.createdAt.getTime(),
    retiredAt: key.retiredAt?.getTime() ?? null,
    pending: key.pending,
    failed: key.failed,
    resigned: key.resigned,
  };
}

export function toSigningKeyListDto(keys: readonly SigningKeyInfo[]): SigningKeyListDto {
  return { keys: keys.map(toSigningKeyDto) };
}

export function toKeyRotationDto(rotation: KeyRotation): KeyRotationDto {
  return {
    kid: rotation.kid,
    previousKid: rotation.previousKid,
    drainingKid: rotation.drainingKid,
    retiredKids: [...rotation.retiredKids],
    pending: rotation.pending,
    stillDraining: rotation.stillDraining.map((key) => ({ kid: key.kid, pending: key.pending })),
  };
}
