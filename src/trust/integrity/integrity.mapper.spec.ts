import { keyA, keyB, RFC8037_PRIVATE_JWK } from '../../lib/integrity/testdata/signing-fixtures';
import { toKeyRotationDto, toKeySetDto, toSigningKeyListDto } from './integrity.mapper';

describe('integrity mapper', () => {
  it('keeps exactly the six public members of each key, in order', () => {
    const leaky = { ...keyA.jwk, d: RFC8037_PRIVATE_JWK.d, ext: true };
    const dto = toKeySetDto({ keys: [leaky, keyB.jwk] });
    expect(dto.keys.map((key) => key.kid)).toEqual([keyA.jwk.kid, keyB.jwk.kid]);
    expect(dto.keys[0]).toEqual({ kid: keyA.jwk.kid, kty: 'OKP', crv: 'Ed25519', x: keyA.jwk.x, alg: 'EdDSA', use: 'sig' });
    expect(JSON.stringify(dto)).not.toContain(RFC8037_PRIVATE_JWK.d);
  });

  it('lists signing keys with epoch-millisecond times, re-signing counts and no key material', () => {
    const createdAt = new Date('2026-01-02T03:04:05.000Z');
    const times = { createdAt, demotedAt: createdAt, drainingAt: createdAt, drainedAt: null };
    const dto = toSigningKeyListDto([
      {
        kid: 'k1',
        state: 'retired',
        publicJwk: keyA.jwk,
        ...times,
        retiredAt: new Date(createdAt.getTime() + 1),
        pending: 0,
        failed: 1,
        resigned: 7,
      },
      { kid: 'k2', state: 'draining', publicJwk: keyB.jwk, ...times, retiredAt: null, pending: 3, failed: 0, resigned: 2 },
    ]);
    expect(dto).toEqual({
      keys: [
        {
          kid: 'k1',
          state: 'retired',
          createdAt: createdAt.getTime(),
          retiredAt: createdAt.getTime() + 1,
          pending: 0,
          failed: 1,
          resigned: 7,
        },
        { kid: 'k2', state: 'draining', createdAt: createdAt.getTime(), retiredAt: null, pending: 3, failed: 0, resigned: 2 },
      ],
    });
    expect(JSON.stringify(dto)).not.toContain(keyA.jwk.x);
  });

  it('maps a rotation', () => {
    const rotation = {
      kid: 'n',
      previousKid: 'c',
      drainingKid: 'p',
      retiredKids: ['d'],
      pending: 4,
      stillDraining: [{ kid: 'o', pending: 2 }],
    };
    expect(toKeyRotationDto(rotation)).toEqual({
      kid: 'n',
      previousKid: 'c',
      drainingKid: 'p',
      retiredKids: ['d'],
      pending: 4,
      stillDraining: [{ kid: 'o', pending: 2 }],
    });
  });
});
