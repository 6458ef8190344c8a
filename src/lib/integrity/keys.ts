import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from './base64url';
import { canonicalJson } from './canonical-json';
import type { KeySet, PublicJwk } from './types';

const ED25519_PUBLIC_KEY_LENGTH = 32;

/** The members RFC 7638 section 3.2 says an OKP key's thumbprint is computed over. */
export interface OkpThumbprintMembers {
  crv: string;
  kty: string;
  x: string;
}

function assertEd25519(key: KeyObject, type: 'public' | 'private'): void {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new TypeError(`expected an Ed25519 key, got ${key.asymmetricKeyType ?? key.type}`);
  }
  if (key.type !== type) throw new TypeError(`expected a ${type} key, got a ${key.type} key`);
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url): the registry's kid. */
export function jwkThumbprint(jwk: OkpThumbprintMembers): string {
  // RFC 7638 asks for the required members only, lexicographically ordered, no whitespace:
  // exactly what RFC 8785 produces for this all-ASCII object.
  const members = canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return base64urlEncode(createHash('sha256').update(members, 'utf8').digest());
}

/** The published JWK of an Ed25519 key; a private key is accepted and its public half used. */
export function publicJwkFromKeyObject(key: KeyObject): PublicJwk {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  assertEd25519(publicKey, 'public');
  const exported = publicKey.export({ format: 'jwk' });
  if (typeof exported.x !== 'string') throw new TypeError('Ed25519 JWK export lacks x');
  const x = exported.x;
  return { kid: jwkThumbprint({ crv: 'Ed25519', kty: 'OKP', x }), kty: 'OKP', crv: 'Ed25519', x, alg: 'EdDSA', use: 'sig' };
}

/**
 * Whether a value is a usable public signing key: an Ed25519 OKP key with a 32-byte x, and, when
 * present, alg EdDSA and use sig. Private members (d) disqualify it: a key set must never carry them.
 */
export function isUsablePublicJwk(value: unknown): value is PublicJwk {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const jwk = value as Record<string, unknown>;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return false;
  if (typeof jwk.kid !== 'string' || jwk.kid === '' || 'd' in jwk) return false;
  if (jwk.alg !== undefined && jwk.alg !== 'EdDSA') return false;
  if (jwk.use !== undefined && jwk.use !== 'sig') return false;
  return base64urlDecode(jwk.x)?.length === ED25519_PUBLIC_KEY_LENGTH;
}

/** The usable keys of an untrusted key-set document (anything else in it is ignored). */
export function usableKeys(keySet: unknown): PublicJwk[] {
  if (typeof keySet !== 'object' || keySet === null) return [];
  const keys = (keySet as Partial<KeySet>).keys;
  return Array.isArray(keys) ? keys.filter(isUsablePublicJwk) : [];
}

export function publicKeyFromJwk(jwk: Pick<PublicJwk, 'kty' | 'crv' | 'x'>): KeyObject {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || base64urlDecode(jwk.x)?.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new TypeError('not an Ed25519 public JWK');
  }
  // Only the public members go to node: a JWK that also carried d would otherwise yield a private key.
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
}

export function generateSigningKey(): { privateKey: KeyObject; publicKey: KeyObject; jwk: PublicJwk } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, jwk: publicJwkFromKeyObject(publicKey) };
}

/** PKCS#8 DER of an Ed25519 private key: the form the server encrypts at rest. */
export function exportPrivateKeyPkcs8(privateKey: KeyObject): Uint8Array {
  assertEd25519(privateKey, 'private');
  return new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' }));
}

export function importPrivateKeyPkcs8(der: Uint8Array): KeyObject {
  const privateKey = createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
  assertEd25519(privateKey, 'private');
  return privateKey;
}
