import { verify } from 'node:crypto';
import { base64urlDecode, base64urlEncode, canonicalJson, signCompact, signPayload } from '../integrity';
import { demoPayload, keyA, keyB } from '../integrity/testdata/signing-fixtures';
import {
  decodeFreshnessStatement,
  FRESHNESS_ERRORS,
  type FreshnessErrorCode,
  type FreshnessStatement,
  rfc3339Seconds,
  signFreshnessStatement,
  verifyFreshness,
} from '.';

const STATEMENT: FreshnessStatement = {
  slug: 'demo-plugin',
  version: '1.2.0',
  platform: { os: 'linux', arch: 'x64' },
  asset_sha256: 'a'.repeat(64),
  issued_at: '2026-11-28T00:00:00Z',
  expires_at: '2026-11-29T00:00:00Z',
  tree_size: 42,
};

/** Signed with the RFC 8037 Appendix A key: Ed25519 is deterministic, so the bytes are fixed. */
const KNOWN_ANSWER =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImtQcktfcW14VldhWVZBOXd3QkY2SXVvM3ZWeno3VHhIQ1R3WEJ5Z3JTNGsiLCJ0eXAiOiJyZWdpc3RyeS1mcmVzaG5lc3MrandzIn0' +
  '.eyJhc3NldF9zaGEyNTYiOiJhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhIiwiZXhwaXJlc19hdCI6IjIwMjYtMTEtMjlUMDA6MDA6MDBaIiwiaXNzdWVkX2F0IjoiMjAyNi0xMS0yOFQwMDowMDowMFoiLCJwbGF0Zm9ybSI6eyJhcmNoIjoieDY0Iiwib3MiOiJsaW51eCJ9LCJzbHVnIjoiZGVtby1wbHVnaW4iLCJ0cmVlX3NpemUiOjQyLCJ2ZXJzaW9uIjoiMS4yLjAifQ' +
  '.ygJcXaZMXZ3t9FdcIV2LO-RSdtZELSAVoRPipkOc-OO4DcX39ndBcqz9xgE1QrU5Dk8k4ygRHwOMbjOEGAp3BQ';

const KEYS = { keys: [keyA.jwk] };
const NOON = new Date('2026-11-28T12:00:00Z');
const sign = (overrides: Partial<FreshnessStatement> = {}) =>
  signFreshnessStatement({ ...STATEMENT, ...overrides }, keyA.privateKey, keyA.jwk.kid);

async function refusal(
  jws: string,
  options: {
    slug?: string;
    platform?: string;
    now?: Date;
    seen?: Parameters<typeof verifyFreshness>[4];
    keys?: Parameters<typeof verifyFreshness>[1];
  } = {},
): Promise<FreshnessErrorCode | 'ok'> {
  const result = await verifyFreshness(
    jws,
    options.keys ?? KEYS,
    { slug: options.slug ?? 'demo-plugin', platform: options.platform },
    options.now ?? NOON,
    options.seen,
  );
  return result.ok ? 'ok' : result.code;
}

describe('freshness statements', () => {
  it('signs the known answer with the RFC 8037 key: header {alg, kid, typ}, payload the RFC 8785 statement', () => {
    expect(sign()).toBe(KNOWN_ANSWER);
    const [header, payload, signature] = KNOWN_ANSWER.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(base64urlDecode(header)!).toString())).toEqual({
      alg: 'EdDSA',
      kid: keyA.jwk.kid,
      typ: 'registry-freshness+jws',
    });
    expect(Buffer.from(base64urlDecode(payload)!).toString()).toBe(canonicalJson(STATEMENT));
    // Checked with node:crypto directly, not through our verifier.
    expect(verify(null, Buffer.from(`${header}.${payload}`), keyA.privateKey, Buffer.from(base64urlDecode(signature)!))).toBe(true);
  });

  it('accepts the known answer within its lifetime, for its slug and platform (key or {os, arch})', async () => {
    const result = await verifyFreshness(KNOWN_ANSWER, KEYS, { slug: 'demo-plugin', platform: 'linux-x64' }, NOON);
    expect(result).toEqual({ ok: true, statement: STATEMENT, kid: keyA.jwk.kid });
    expect(await verifyFreshness(KNOWN_ANSWER, KEYS, { slug: 'demo-plugin', platform: { os: 'linux', arch: 'x64' } }, NOON)).toMatchObject({
      ok: true,
    });
    expect(await refusal(KNOWN_ANSWER, { seen: { version: '1.2.0', tree_size: 42, issued_at: '2026-11-28T00:00:00Z' } })).toBe('ok');
  });

  it('writes timestamps in RFC 3339 UTC with whole seconds', () => {
    expect(rfc3339Seconds(new Date('2026-11-28T03:04:05.678Z'))).toBe('2026-11-28T03:04:05Z');
  });

  it('refuses to sign a statement out of form', () => {
    expect(() => sign({ expires_at: STATEMENT.issued_at })).toThrow(/expires_at is not after issued_at/);
    expect(() => sign({ tree_size: -1 })).toThrow(/tree_size/);
  });

  it('decodes strictly: canonical form, exact members, bounded', () => {
    const bytes = (value: unknown) => new Uint8Array(Buffer.from(typeof value === 'string' ? value : canonicalJson(value)));
    expect(decodeFreshnessStatement(bytes(STATEMENT))).toEqual({ ok: true, statement: STATEMENT });
    expect(decodeFreshnessStatement(bytes(JSON.stringify(STATEMENT, null, 1)))).toMatchObject({ ok: false, reason: /canonical/ });
    expect(decodeFreshnessStatement(bytes({ ...STATEMENT, extra: 1 }))).toMatchObject({ ok: false, reason: /members/ });
    expect(decodeFreshnessStatement(bytes({ ...STATEMENT, platform: { os: 'linux' } }))).toMatchObject({ ok: false, reason: /platform/ });
    expect(decodeFreshnessStatement(bytes({ ...STATEMENT, issued_at: '2026-11-28 00:00:00' }))).toMatchObject({
      ok: false,
      reason: /issued_at/,
    });
    expect(decodeFreshnessStatement(new Uint8Array(5000))).toMatchObject({ ok: false, reason: /over 4096 bytes/ });
  });

  describe('refusals, one code each', () => {
    it('MISSING and MALFORMED_JWS', async () => {
      expect(await refusal('')).toBe('MISSING');
      expect(await refusal('a.b')).toBe('MALFORMED_JWS');
    });

    it('ALGORITHM_REFUSED for another alg or a key carried in the header', async () => {
      const [, payload, signature] = KNOWN_ANSWER.split('.');
      const header = (value: object) => base64urlEncode(Buffer.from(JSON.stringify(value)));
      expect(await refusal(`${header({ alg: 'HS256', kid: keyA.jwk.kid, typ: 'registry-freshness+jws' })}.${payload}.${signature}`)).toBe(
        'ALGORITHM_REFUSED',
      );
      expect(
        await refusal(
          `${header({ alg: 'EdDSA', kid: keyA.jwk.kid, typ: 'registry-freshness+jws', jwk: keyB.jwk })}.${payload}.${signature}`,
        ),
      ).toBe('ALGORITHM_REFUSED');
    });

    it('WRONG_TYPE for a release signature passed off as a statement, and for a statement without typ', async () => {
      expect(await refusal(signPayload(demoPayload(), keyA.privateKey, keyA.jwk.kid))).toBe('WRONG_TYPE');
      expect(await refusal(signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, Buffer.from(canonicalJson(STATEMENT)), keyA.privateKey))).toBe(
        'WRONG_TYPE',
      );
    });

    it('KID_UNKNOWN after the one refresh, and SIGNATURE_INVALID for an altered statement', async () => {
      let fetched = 0;
      const source = { fetchKeySet: () => Promise.resolve({ keys: [keyB.jwk] }).finally(() => (fetched += 1)) };
      expect(await refusal(KNOWN_ANSWER, { keys: source })).toBe('KID_UNKNOWN');
      expect(fetched).toBe(2);
      const [header, , signature] = KNOWN_ANSWER.split('.');
      const altered = base64urlEncode(Buffer.from(canonicalJson({ ...STATEMENT, tree_size: 43 })));
      expect(await refusal(`${header}.${altered}.${signature}`)).toBe('SIGNATURE_INVALID');
      // The right kid, another key's signature.
      expect(
        await refusal(
          signCompact(
            { alg: 'EdDSA', kid: keyA.jwk.kid, typ: 'registry-freshness+jws' },
            Buffer.from(canonicalJson(STATEMENT)),
            keyB.privateKey,
          ),
        ),
      ).toBe('SIGNATURE_INVALID');
    });

    it('MALFORMED_STATEMENT for a signed document that is not a statement', async () => {
      const jws = signCompact(
        { alg: 'EdDSA', kid: keyA.jwk.kid, typ: 'registry-freshness+jws' },
        Buffer.from(canonicalJson({ ...STATEMENT, tree_size: '42' })),
        keyA.privateKey,
      );
      expect(await refusal(jws)).toBe('MALFORMED_STATEMENT');
    });

    it('SLUG_MISMATCH and PLATFORM_MISMATCH', async () => {
      expect(await refusal(KNOWN_ANSWER, { slug: 'other-plugin' })).toBe('SLUG_MISMATCH');
      expect(await refusal(KNOWN_ANSWER, { platform: 'universal' })).toBe('PLATFORM_MISMATCH');
      expect(await refusal(sign({ platform: 'universal' }), { platform: 'linux-x64' })).toBe('PLATFORM_MISMATCH');
    });

    it('EXPIRED at and after expires_at, ISSUED_IN_FUTURE beyond the skew', async () => {
      expect(await refusal(KNOWN_ANSWER, { now: new Date('2026-11-28T23:59:59Z') })).toBe('ok');
      expect(await refusal(KNOWN_ANSWER, { now: new Date('2026-11-29T00:00:00Z') })).toBe('EXPIRED');
      expect(await refusal(KNOWN_ANSWER, { now: new Date('2026-12-28T00:00:00Z') })).toBe('EXPIRED');
      expect(await refusal(KNOWN_ANSWER, { now: new Date('2026-11-27T23:56:00Z') })).toBe('ok');
      expect(await refusal(KNOWN_ANSWER, { now: new Date('2026-11-27T23:54:00Z') })).toBe('ISSUED_IN_FUTURE');
    });

    it('TREE_SIZE_ROLLBACK, ISSUED_AT_ROLLBACK and VERSION_ROLLBACK against what was seen', async () => {
      expect(await refusal(KNOWN_ANSWER, { seen: { version: '1.2.0', tree_size: 43, issued_at: '2026-11-27T00:00:00Z' } })).toBe(
        'TREE_SIZE_ROLLBACK',
      );
      expect(await refusal(KNOWN_ANSWER, { seen: { version: '1.2.0', tree_size: 42, issued_at: '2026-11-28T00:00:01Z' } })).toBe(
        'ISSUED_AT_ROLLBACK',
      );
      expect(await refusal(KNOWN_ANSWER, { seen: { version: '1.3.0', tree_size: 42, issued_at: '2026-11-27T00:00:00Z' } })).toBe(
        'VERSION_ROLLBACK',
      );
    });

    it('accepts a lower version when the log grew (a yank), and a newer statement of the same answer', async () => {
      expect(await refusal(KNOWN_ANSWER, { seen: { version: '1.3.0', tree_size: 41, issued_at: '2026-11-27T00:00:00Z' } })).toBe('ok');
      expect(
        await refusal(sign({ issued_at: '2026-11-28T06:00:00Z', expires_at: '2026-11-29T06:00:00Z' }), {
          seen: { version: '1.2.0', tree_size: 42, issued_at: '2026-11-28T00:00:00Z' },
        }),
      ).toBe('ok');
    });

    it('every code has its meaning', () => {
      for (const meaning of Object.values(FRESHNESS_ERRORS)) expect(meaning.length).toBeGreaterThan(20);
    });
  });
});
