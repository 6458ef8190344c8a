/**
 * Deterministic keys and releases shared by the integrity specs (and the CLI test). Not used by
 * production code; kept beside the vectors so every spec signs with the same, reproducible keys.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { sha256Hex } from '../canonical-json';
import { importPrivateKeyPkcs8, publicJwkFromKeyObject } from '../keys';
import { signPayload } from '../jws';
import type { IntegrityAsset, PublicJwk, ReleaseRecord, SignedPayload } from '../types';

/** RFC 8037 Appendix A.1. */
export const RFC8037_PRIVATE_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
} as const;

/** PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface TestKey {
  privateKey: KeyObject;
  jwk: PublicJwk;
}

function keyFromSeed(seedByte: number): TestKey {
  const privateKey = importPrivateKeyPkcs8(Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.alloc(32, seedByte)]));
  return { privateKey, jwk: publicJwkFromKeyObject(privateKey) };
}

export function rfc8037Key(): TestKey {
  const privateKey = createPrivateKey({ key: { ...RFC8037_PRIVATE_JWK }, format: 'jwk' });
  return { privateKey, jwk: publicJwkFromKeyObject(privateKey) };
}

/** Three fixed, distinct keys: A signs, B and C play the other slots of the key set. */
export const keyA = rfc8037Key();
export const keyB = keyFromSeed(0xb0);
export const keyC = keyFromSeed(0xc0);

export const ASSET_BYTES = new Uint8Array(Buffer.from('demo plugin archive contents\n'.repeat(100), 'utf8'));
export const OTHER_ASSET_BYTES = new Uint8Array(Buffer.from('second asset', 'utf8'));

export function integrityAsset(name: string, bytes: Uint8Array, extra: Partial<IntegrityAsset> = {}): IntegrityAsset {
  return {
    name,
    sha256: sha256Hex(bytes),
    size: bytes.length,
    contentType: 'application/zip',
    arch: 'any',
    os: 'any',
    attestation: null,
    ...extra,
  };
}

export function demoPayload(overrides: Partial<SignedPayload> = {}): SignedPayload {
  return {
    slug: 'demo',
    version: '1.0.0',
    manifest_sha256: sha256Hex('{}'),
    assets: [integrityAsset('demo.zip', ASSET_BYTES), integrityAsset('demo-extra.bin', OTHER_ASSET_BYTES)],
    ...overrides,
  };
}

/** A release record whose integrity is `payload` signed by `key` (A unless said otherwise). */
export function signedRelease(payload: SignedPayload = demoPayload(), key: TestKey = keyA): ReleaseRecord {
  return {
    slug: payload.slug,
    version: payload.version,
    assets: payload.assets.map((asset) => ({ name: asset.name, url: `/downloads/${asset.name}`, size: asset.size })),
    integrity: { jws: signPayload(payload, key.privateKey, key.jwk.kid), assets: payload.assets },
  };
}

export function releaseWithJws(jws: string, payload: SignedPayload = demoPayload()): ReleaseRecord {
  return { ...signedRelease(payload), integrity: { jws, assets: payload.assets } };
}

// Written out in full (not built from fixtures) so the pin cannot drift with shared test data.
export const PINNED_PAYLOAD: SignedPayload = {
  slug: 'demo',
  version: '1.0.0',
  manifest_sha256: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
  assets: [
    {
      name: 'demo-linux-x64.tar.gz',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 0,
      contentType: 'application/gzip',
      arch: 'x64',
      os: 'linux',
      attestation: null,
    },
  ],
};

// Pinned once from this implementation; Ed25519 is deterministic, so any change here means the
// header bytes, the payload's canonical bytes or the key changed. (interop.spec.ts has openssl
// verify this exact JWS, so the pin is not only self-consistent.)
export const PINNED_RELEASE_JWS =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImtQcktfcW14VldhWVZBOXd3QkY2SXVvM3ZWeno3VHhIQ1R3WEJ5Z3JTNGsifQ.' +
  'eyJhc3NldHMiOlt7ImFyY2giOiJ4NjQiLCJhdHRlc3RhdGlvbiI6bnVsbCwiY29udGVudFR5cGUiOiJhcHBsaWNhdGlvbi9nemlwIiwibmFtZSI6ImRlbW8tbGludXgteDY0LnRhci5neiIsIm9zIjoibGludXgiLCJzaGEyNTYiOiJlM2IwYzQ0Mjk4ZmMxYzE0OWFmYmY0Yzg5OTZmYjkyNDI3YWU0MWU0NjQ5YjkzNGNhNDk1OTkxYjc4NTJiODU1Iiwic2l6ZSI6MH1dLCJtYW5pZmVzdF9zaGEyNTYiOiI0NDEzNmZhMzU1YjM2NzhhMTE0NmFkMTZmN2U4NjQ5ZTk0ZmI0ZmMyMWZlNzdlODMxMGMwNjBmNjFjYWFmZjhhIiwic2x1ZyI6ImRlbW8iLCJ2ZXJzaW9uIjoiMS4wLjAifQ.' +
  'cDylM54xuXC9XBeHfSbAsAt5Qb0SAnzYUlzH6pFCfXEcV14TIbl0tQxJIxUPPC08GoAOjzRmR-NEyCwLGqxvDw';
