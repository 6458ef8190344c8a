import { base64urlEncode, parseCompactJws, signCompact, signPayload, verifyRelease } from '../../lib/integrity';
import { keyA, keyB, keyC, PINNED_PAYLOAD, PINNED_RELEASE_JWS, releaseWithJws } from '../../lib/integrity/testdata/signing-fixtures';
import { resignCompactJws, type ResignInput } from './resign-signature';

const FROM_A_TO_B: Omit<ResignInput, 'jws'> = { kid: keyA.jwk.kid, oldKey: keyA.jwk, newKid: keyB.jwk.kid, newPrivateKey: keyB.privateKey };

function resign(jws: string | null, overrides: Partial<ResignInput> = {}) {
  return resignCompactJws({ ...FROM_A_TO_B, jws, ...overrides });
}

/** Replaces one segment of a compact JWS. */
function withSegment(jws: string, index: 0 | 1 | 2, segment: string): string {
  const parts = jws.split('.');
  parts[index] = segment;
  return parts.join('.');
}

describe('resignCompactJws', () => {
  it('signs the very same payload bytes under the new kid (known answer: what signing the payload with B gives)', () => {
    const outcome = resign(PINNED_RELEASE_JWS);
    expect(outcome).toEqual({ ok: true, jws: signPayload(PINNED_PAYLOAD, keyB.privateKey, keyB.jwk.kid) });
    const jws = (outcome as { jws: string }).jws;
    expect(jws.split('.')[1]).toBe(PINNED_RELEASE_JWS.split('.')[1]);
    expect(parseCompactJws(jws).header).toEqual({ alg: 'EdDSA', kid: keyB.jwk.kid });
  });

  it('yields a release the framework-free verifier accepts with the new key alone', async () => {
    const outcome = resign(PINNED_RELEASE_JWS);
    const release = releaseWithJws((outcome as { jws: string }).jws, PINNED_PAYLOAD);
    const verdict = await verifyRelease({ release, keys: { keys: [keyB.jwk] }, expected: { slug: 'demo', version: '1.0.0' } });
    expect(verdict).toMatchObject({ ok: true, kid: keyB.jwk.kid, payload: PINNED_PAYLOAD });
  });

  it('is deterministic: re-signing twice gives the same JWS', () => {
    expect(resign(PINNED_RELEASE_JWS)).toEqual(resign(PINNED_RELEASE_JWS));
  });

  it('never re-signs bytes whose signature does not verify under the old key', () => {
    const [header, payload, signature] = PINNED_RELEASE_JWS.split('.') as [string, string, string];
    const flipped = Buffer.from(signature, 'base64url');
    flipped[0] ^= 1;
    expect(resign(withSegment(PINNED_RELEASE_JWS, 2, base64urlEncode(flipped)))).toEqual({
      ok: false,
      reason: `the Ed25519 signature does not verify under kid ${keyA.jwk.kid}`,
    });
    // A payload edited after signing.
    const edited = Buffer.from(payload, 'base64url').toString('utf8').replace('"1.0.0"', '"6.6.6"');
    expect(resign(`${header}.${base64urlEncode(Buffer.from(edited))}.${signature}`)).toMatchObject({
      ok: false,
      reason: /does not verify/,
    });
    // Signed by another key (C) while naming A.
    const byC = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, Buffer.from(payload, 'base64url'), keyC.privateKey);
    expect(resign(byC)).toMatchObject({ ok: false, reason: /does not verify/ });
  });

  it('refuses a JWS whose header is not the registry’s own, or names another key than the record', () => {
    const payloadBytes = Buffer.from(PINNED_RELEASE_JWS.split('.')[1]!, 'base64url');
    const extra = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid, typ: 'JWT' }, payloadBytes, keyA.privateKey);
    expect(resign(extra)).toEqual({ ok: false, reason: 'the protected header is not exactly {alg: EdDSA, kid}' });
    const byB = signPayload(PINNED_PAYLOAD, keyB.privateKey, keyB.jwk.kid);
    expect(resign(byB)).toEqual({ ok: false, reason: `the JWS header names kid ${keyB.jwk.kid}, the release record ${keyA.jwk.kid}` });
  });

  it('refuses a malformed JWS, a missing one, and a validly signed payload that is not a release payload', () => {
    expect(resign(null)).toEqual({ ok: false, reason: 'the release has no JWS' });
    expect(resign('not-a-jws')).toMatchObject({ ok: false, reason: /^malformed JWS: expected 3/ });
    expect(resign(withSegment(PINNED_RELEASE_JWS, 2, 'AAAA'))).toEqual({ ok: false, reason: 'the signature is 3 bytes, not 64' });
    const notAPayload = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, Buffer.from('{"slug":"demo"}'), keyA.privateKey);
    expect(resign(notAPayload)).toMatchObject({ ok: false, reason: /^the signed payload is malformed/ });
  });

  it('treats a verification key that is not the named kid as a caller error', () => {
    expect(() => resign(PINNED_RELEASE_JWS, { oldKey: keyC.jwk })).toThrow(/verification key/);
  });
});
