import { createHmac } from 'node:crypto';
import { base64urlEncode } from './base64url';
import { canonicalJsonBytes } from './canonical-json';
import { signCompact, signPayload } from './jws';
import { demoPayload, keyA, keyB, keyC, releaseWithJws } from './testdata/signing-fixtures';
import type { VerificationErrorCode } from './verification-errors';
import { verifyRelease } from './verify';

const EXPECTED = { slug: 'demo', version: '1.0.0' };
const KEYS = { keys: [keyB.jwk, keyA.jwk] };
const GENUINE = signPayload(demoPayload(), keyA.privateKey, keyA.jwk.kid);
const [HEADER, PAYLOAD, SIGNATURE] = GENUINE.split('.') as [string, string, string];

function verifyJws(jws: unknown) {
  return verifyRelease({ release: releaseWithJws(jws as string), keys: KEYS, expected: EXPECTED });
}

async function codeOf(jws: unknown): Promise<VerificationErrorCode | 'OK'> {
  const result = await verifyJws(jws);
  return result.ok ? 'OK' : result.code;
}

/** A token with any header, its signature computed by `signer` over the usual signing input. */
function forge(header: Record<string, unknown>, signer: (input: string) => Buffer | Uint8Array): string {
  const input = `${base64urlEncode(JSON.stringify(header))}.${PAYLOAD}`;
  return `${input}.${base64urlEncode(signer(input))}`;
}

function flipByte(segment: string, index: number): string {
  const bytes = Buffer.from(segment, 'base64url');
  bytes[index] ^= 0x01;
  return base64urlEncode(bytes);
}

it('the untampered token verifies (so the failures below are caused by the tampering)', async () => {
  expect(await codeOf(GENUINE)).toBe('OK');
});

describe('tampering', () => {
  it('a changed payload byte → SIGNATURE_INVALID', async () => {
    expect(await codeOf(`${HEADER}.${flipByte(PAYLOAD, 40)}.${SIGNATURE}`)).toBe('SIGNATURE_INVALID');
  });

  it('a changed signature byte → SIGNATURE_INVALID', async () => {
    expect(await codeOf(`${HEADER}.${PAYLOAD}.${flipByte(SIGNATURE, 5)}`)).toBe('SIGNATURE_INVALID');
  });

  it('a changed header (extra member) → SIGNATURE_INVALID', async () => {
    const header = base64urlEncode(JSON.stringify({ alg: 'EdDSA', kid: keyA.jwk.kid, typ: 'JWT' }));
    expect(await codeOf(`${header}.${PAYLOAD}.${SIGNATURE}`)).toBe('SIGNATURE_INVALID');
  });

  it('a swapped kid naming the other key in the set → SIGNATURE_INVALID', async () => {
    const header = base64urlEncode(JSON.stringify({ alg: 'EdDSA', kid: keyB.jwk.kid }));
    expect(await codeOf(`${header}.${PAYLOAD}.${SIGNATURE}`)).toBe('SIGNATURE_INVALID');
  });

  it('a payload re-signed by a key outside the set → KID_UNKNOWN', async () => {
    const payload = canonicalJsonBytes(demoPayload({ manifest_sha256: '0'.repeat(64) }));
    expect(await codeOf(signCompact({ alg: 'EdDSA', kid: keyC.jwk.kid }, payload, keyC.privateKey))).toBe('KID_UNKNOWN');
  });

  it('an outsider signature presented under a trusted kid → SIGNATURE_INVALID', async () => {
    const payload = canonicalJsonBytes(demoPayload());
    expect(await codeOf(signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, payload, keyC.privateKey))).toBe('SIGNATURE_INVALID');
  });
});

describe('algorithm and key confusion', () => {
  it('HS256 keyed with the public key bytes → ALGORITHM_REFUSED', async () => {
    const secret = Buffer.from(keyA.jwk.x, 'base64url');
    const token = forge({ alg: 'HS256', kid: keyA.jwk.kid }, (input) => createHmac('sha256', secret).update(input).digest());
    // The forgery is a correct HMAC: a verifier keying HS256 with the published key would accept it.
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')).toBe(s);
    expect(await codeOf(token)).toBe('ALGORITHM_REFUSED');
  });

  it.each([['none'], ['None'], ['RS256'], ['ES256'], ['eddsa'], ['Ed25519']])('alg %s → ALGORITHM_REFUSED', async (alg) => {
    expect(await codeOf(forge({ alg, kid: keyA.jwk.kid }, () => new Uint8Array()))).toBe('ALGORITHM_REFUSED');
    expect(await codeOf(`${base64urlEncode(JSON.stringify({ alg, kid: keyA.jwk.kid }))}.${PAYLOAD}.${SIGNATURE}`)).toBe(
      'ALGORITHM_REFUSED',
    );
  });

  it('a missing or non-string alg → ALGORITHM_REFUSED', async () => {
    expect(await codeOf(`${base64urlEncode(JSON.stringify({ kid: keyA.jwk.kid }))}.${PAYLOAD}.${SIGNATURE}`)).toBe('ALGORITHM_REFUSED');
    expect(await codeOf(`${base64urlEncode(JSON.stringify({ alg: ['EdDSA'], kid: keyA.jwk.kid }))}.${PAYLOAD}.${SIGNATURE}`)).toBe(
      'ALGORITHM_REFUSED',
    );
  });

  it('an embedded jwk the token was signed with → ALGORITHM_REFUSED', async () => {
    const payload = canonicalJsonBytes(demoPayload());
    for (const kid of [keyC.jwk.kid, keyA.jwk.kid]) {
      const token = signCompact({ alg: 'EdDSA', kid, jwk: keyC.jwk }, payload, keyC.privateKey);
      expect(await codeOf(token)).toBe('ALGORITHM_REFUSED');
    }
  });

  it.each<[string, unknown]>([
    ['jku', 'https://attacker.example/keys.json'],
    ['x5u', 'https://attacker.example/cert.pem'],
    ['x5c', ['MIIB']],
    ['crit', ['b64']],
  ])('a %s header member → ALGORITHM_REFUSED', async (member, value) => {
    const token = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid, [member]: value }, canonicalJsonBytes(demoPayload()), keyA.privateKey);
    expect(await codeOf(token)).toBe('ALGORITHM_REFUSED');
  });
});

describe('malformed tokens', () => {
  it.each<[string, unknown]>([
    ['not a string', 42],
    ['two segments', `${HEADER}.${PAYLOAD}`],
    ['padded base64', `${HEADER}.${PAYLOAD}.${SIGNATURE}==`],
    ['a header without kid', `${base64urlEncode('{"alg":"EdDSA"}')}.${PAYLOAD}.${SIGNATURE}`],
    ['an empty kid', `${base64urlEncode('{"alg":"EdDSA","kid":""}')}.${PAYLOAD}.${SIGNATURE}`],
    ['a 63-byte signature', `${HEADER}.${PAYLOAD}.${base64urlEncode(Buffer.from(SIGNATURE, 'base64url').subarray(1))}`],
  ])('%s → MALFORMED_JWS', async (_label, jws) => {
    expect(await codeOf(jws)).toBe('MALFORMED_JWS');
  });

  it('is reported, never thrown, even for an integrity object without jws', async () => {
    const result = await verifyRelease({ release: releaseWithJws(undefined as never), keys: KEYS, expected: EXPECTED });
    expect(result).toMatchObject({ ok: false, code: 'MALFORMED_JWS' });
  });
});
