import { keyA, keyB, RFC8037_PRIVATE_JWK } from '../lib/integrity/testdata/signing-fixtures';
import { toKeyRotationDto, toKeySetDto, toSigningKeyListDto } from './integrity.mapper';

describe('integrity mapper', () => {
  it('keeps exactly the six public members of each key, in order', () => {
    const leaky = { ...keyA.jwk, d: RFC8037_PRIVATE_JWK.d, ext: true };
    const dto = toKeySetDto({ keys: [leaky, keyB.jwk] });
    expect(dto.keys.map((key) => key.kid)).toEqual([keyA.jwk.kid, keyB.jwk.kid]);
    expect(dto.keys[0]).toEqual({ kid: keyA.jwk.kid, kty: 'OKP', crv: 'Ed25519', x: keyA.jwk.x, alg: 'EdDSA', use: 'sig' });
    expect(JSON.stringify(dto)).not.toContain(RFC8037_PRIVATE_JWK.d);
  });

  it('lists signing keys with epoch-millisecond times and no key material', () => {
    const createdAt = new Date('2026-01-02T03:04:05.000Z');
    const dto = toSigningKeyListDto([
      { kid: 'k1', state: 'retired', publicJwk: keyA.jwk, createdAt, demotedAt: createdAt, retiredAt: new Date(createdAt.getTime() + 1) },
      { kid: 'k2', state: 'current', publicJwk: keyB.jwk, createdAt, demotedAt: null, retiredAt: null },
    ]);
    expect(dto).toEqual({
      keys: [
        { kid: 'k1', state: 'retired', createdAt: createdAt.getTime(), retiredAt: createdAt.getTime() + 1 },
        { kid: 'k2', state: 'current', createdAt: createdAt.getTime(), retiredAt: null },
      ],
    });
  });

  it('maps a rotation', () => {
    expect(toKeyRotationDto({ kid: 'n', previousKid: 'p', retiredKid: null })).toEqual({ kid: 'n', previousKid: 'p', retiredKid: null });
  });
});
