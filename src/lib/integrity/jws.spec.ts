import { verify } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from './base64url';
import { canonicalJsonBytes } from './canonical-json';
import { MalformedJwsError, parseCompactJws, signCompact, signPayload } from './jws';
import { publicKeyFromJwk } from './keys';
import { demoPayload, keyA, keyB, PINNED_PAYLOAD, PINNED_RELEASE_JWS } from './testdata/signing-fixtures';

describe('jws: known answers', () => {
  it('RFC 8037 A.4: reproduces the JWS of "Example of Ed25519 signing"', () => {
    const jws = signCompact({ alg: 'EdDSA' }, new TextEncoder().encode('Example of Ed25519 signing'), keyA.privateKey);
    expect(jws).toBe(
      'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.' +
        'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    );
  });

  it('signs a fixed release payload to a pinned JWS', () => {
    const jws = signPayload(PINNED_PAYLOAD, keyA.privateKey, keyA.jwk.kid);
    expect(jws).toBe(PINNED_RELEASE_JWS);
  });

  it('writes the protected header exactly as {"alg":"EdDSA","kid":…} and the payload as its JCS bytes', () => {
    const [header, payload] = signPayload(demoPayload(), keyB.privateKey, keyB.jwk.kid).split('.');
    expect(Buffer.from(header as string, 'base64url').toString()).toBe(`{"alg":"EdDSA","kid":"${keyB.jwk.kid}"}`);
    expect(Buffer.from(payload as string, 'base64url')).toEqual(Buffer.from(canonicalJsonBytes(demoPayload())));
  });

  it('produces a signature node verifies over header.payload', () => {
    const jws = signPayload(demoPayload(), keyB.privateKey, keyB.jwk.kid);
    const parsed = parseCompactJws(jws);
    expect(verify(null, parsed.signingInput, publicKeyFromJwk(keyB.jwk), parsed.signature)).toBe(true);
    expect(verify(null, parsed.signingInput, publicKeyFromJwk(keyA.jwk), parsed.signature)).toBe(false);
  });

  it('refuses to sign with anything but an Ed25519 private key and alg EdDSA', () => {
    expect(() => signCompact({ alg: 'HS256' }, new Uint8Array(), keyA.privateKey)).toThrow(/EdDSA/);
    expect(() => signCompact({ alg: 'EdDSA' }, new Uint8Array(), publicKeyFromJwk(keyA.jwk))).toThrow(/private/);
    expect(() => signPayload(demoPayload(), keyA.privateKey, '')).toThrow(/kid/);
  });
});

describe('jws: strict compact parsing', () => {
  const good = signPayload(demoPayload(), keyA.privateKey, keyA.jwk.kid);
  const [h, p, s] = good.split('.') as [string, string, string];

  it.each<[string, string, RegExp]>([
    ['two segments', `${h}.${p}`, /3 dot-separated segments, got 2/],
    ['four segments', `${good}.x`, /got 4/],
    ['an empty header', `.${p}.${s}`, /header is empty/],
    ['padding in the signature', `${h}.${p}.${s}==`, /signature is not unpadded base64url/],
    ['standard-alphabet characters', `${h}.${p.replace(/-|_/g, '+')}x.${s}`, /payload is not unpadded base64url/],
    ['non-zero padding bits', `${h}.${p}.${s.slice(0, -1)}${String.fromCharCode(s.charCodeAt(s.length - 1) + 1)}`, /signature/],
    ['a header that is not JSON', `${base64urlEncode('{alg:EdDSA}')}.${p}.${s}`, /not UTF-8 JSON/],
    ['a header that is a JSON array', `${base64urlEncode('["EdDSA"]')}.${p}.${s}`, /not a JSON object/],
    ['a header that is invalid UTF-8', `${base64urlEncode(new Uint8Array([0x7b, 0xff, 0x7d]))}.${p}.${s}`, /not UTF-8 JSON/],
  ])('rejects %s', (_label, jws, reason) => {
    expect(() => parseCompactJws(jws)).toThrow(MalformedJwsError);
    expect(() => parseCompactJws(jws)).toThrow(reason);
  });

  it('accepts the good token and exposes its parts', () => {
    const parsed = parseCompactJws(good);
    expect(parsed.header).toEqual({ alg: 'EdDSA', kid: keyA.jwk.kid });
    expect(parsed.signature).toHaveLength(64);
    expect(Buffer.from(parsed.signingInput).toString('ascii')).toBe(`${h}.${p}`);
  });

  it('base64url decoding is canonical: one string per byte sequence', () => {
    expect(base64urlDecode('AQ')).toEqual(new Uint8Array([1]));
    expect(base64urlDecode('AR')).toBeUndefined();
    expect(base64urlDecode('AQ==')).toBeUndefined();
    expect(base64urlDecode('A')).toBeUndefined();
    expect(base64urlDecode('A Q')).toBeUndefined();
  });
});
