import { canonicalJson, sha256Hex, type PublicJwk } from '../../lib/integrity';
import { keySetEntry, signatureEntry } from './log-entries';

describe('log entries', () => {
  it('hash the compact JWS exactly as served', () => {
    const jws = 'eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIn0.e30.c2ln';
    expect(signatureEntry('release', { slug: 'alpha', version: '1.0.0', kid: 'k1', jws })).toEqual({
      type: 'release',
      slug: 'alpha',
      version: '1.0.0',
      kid: 'k1',
      jws_sha256: sha256Hex(jws),
    });
  });

  it('hash the key set as the JWKS route serves it: the six public members, whatever else a key carries', () => {
    const jwk: PublicJwk = { kid: 'k1', kty: 'OKP', crv: 'Ed25519', x: 'AAAA', alg: 'EdDSA', use: 'sig' };
    const served = { keys: [jwk] };
    expect(keySetEntry([{ ...jwk, d: 'secret' } as PublicJwk])).toEqual({ type: 'keys', keys_sha256: sha256Hex(canonicalJson(served)) });
  });
});
