import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import {
  exportPrivateKeyPkcs8,
  generateSigningKey,
  importPrivateKeyPkcs8,
  isUsablePublicJwk,
  jwkThumbprint,
  publicJwkFromKeyObject,
  publicKeyFromJwk,
  usableKeys,
} from './keys';
import { keyA, keyB, RFC8037_PRIVATE_JWK, rfc8037Key } from './testdata/signing-fixtures';

describe('keys: RFC 8037 Appendix A known answers', () => {
  it('A.1/A.2: the private key d yields the public key x', () => {
    expect(rfc8037Key().jwk.x).toBe(RFC8037_PRIVATE_JWK.x);
  });

  it('A.3: the RFC 7638 thumbprint is kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', () => {
    expect(jwkThumbprint({ crv: 'Ed25519', kty: 'OKP', x: RFC8037_PRIVATE_JWK.x })).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('publishes the key with kid = thumbprint and the spec members only', () => {
    expect(publicJwkFromKeyObject(createPublicKey(rfc8037Key().privateKey))).toEqual({
      kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
      kty: 'OKP',
      crv: 'Ed25519',
      x: RFC8037_PRIVATE_JWK.x,
      alg: 'EdDSA',
      use: 'sig',
    });
  });
});

describe('keys: conversions', () => {
  it('round-trips a private key through PKCS#8 DER', () => {
    const { privateKey, jwk } = generateSigningKey();
    const der = exportPrivateKeyPkcs8(privateKey);
    const restored = importPrivateKeyPkcs8(der);
    expect(publicJwkFromKeyObject(restored)).toEqual(jwk);
    const message = Buffer.from('round trip');
    expect(verify(null, message, publicKeyFromJwk(jwk), sign(null, message, restored))).toBe(true);
  });

  it('refuses keys that are not Ed25519, or of the wrong kind', () => {
    const { privateKey: ecKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => exportPrivateKeyPkcs8(ecKey)).toThrow(/Ed25519/);
    expect(() => importPrivateKeyPkcs8(ecKey.export({ format: 'der', type: 'pkcs8' }))).toThrow(/Ed25519/);
    expect(() => publicJwkFromKeyObject(createPublicKey(ecKey))).toThrow(/Ed25519/);
    expect(() => exportPrivateKeyPkcs8(createPublicKey(keyA.privateKey))).toThrow(/private key/);
  });

  it('builds only public keys from a JWK, even when it carries d', () => {
    const key = publicKeyFromJwk({ ...RFC8037_PRIVATE_JWK } as never);
    expect(key.type).toBe('public');
    expect(() => publicKeyFromJwk({ kty: 'OKP', crv: 'Ed25519', x: 'AAAA' })).toThrow(/Ed25519/);
    expect(() => publicKeyFromJwk({ kty: 'EC', crv: 'Ed25519', x: keyA.jwk.x } as never)).toThrow(/Ed25519/);
  });
});

describe('keys: which published keys are usable', () => {
  it.each<[string, unknown, boolean]>([
    ['a well-formed key', keyA.jwk, true],
    ['a key without the optional alg/use', { kid: 'k', kty: 'OKP', crv: 'Ed25519', x: keyA.jwk.x }, true],
    ['a key carrying private material', { ...keyA.jwk, d: RFC8037_PRIVATE_JWK.d }, false],
    ['another curve', { ...keyA.jwk, crv: 'X25519' }, false],
    ['another algorithm', { ...keyA.jwk, alg: 'ES256' }, false],
    ['an encryption key', { ...keyA.jwk, use: 'enc' }, false],
    ['a short x', { ...keyA.jwk, x: keyA.jwk.x.slice(0, 40) }, false],
    ['padded x', { ...keyA.jwk, x: `${keyA.jwk.x}=` }, false],
    ['no kid', { ...keyA.jwk, kid: '' }, false],
    ['not an object', 'key', false],
  ])('%s → %s', (_label, jwk, usable) => {
    expect(isUsablePublicJwk(jwk)).toBe(usable);
  });

  it('reads the usable keys out of an untrusted document', () => {
    expect(usableKeys({ keys: [keyA.jwk, { kty: 'RSA' }, keyB.jwk] })).toEqual([keyA.jwk, keyB.jwk]);
    expect(usableKeys({ keys: 'nope' })).toEqual([]);
    expect(usableKeys(null)).toEqual([]);
  });
});
