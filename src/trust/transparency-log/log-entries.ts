import { canonicalJson, sha256Hex, type PublicJwk } from '../../lib/integrity';
import type { LogEntry } from '../../lib/transparency';

/** A signed release's entry: the signature as served (`integrity.jws`), hashed; `type` says first signing or re-signing. */
export function signatureEntry(type: 'release' | 'resign', release: { slug: string; version: string; kid: string; jws: string }): LogEntry {
  return { type, slug: release.slug, version: release.version, kid: release.kid, jws_sha256: sha256Hex(release.jws) };
}

/** The key set's entry: the hash of the JWKS document exactly as /.well-known/registry-key.json serves it. */
export function keySetEntry(keys: readonly PublicJwk[]): LogEntry {
  const served = { keys: keys.map((jwk) => ({ kid: jwk.kid, kty: jwk.kty, crv: jwk.crv, x: jwk.x, alg: jwk.alg, use: jwk.use })) };
  return { type: 'keys', keys_sha256: sha256Hex(canonicalJson(served)) };
}
