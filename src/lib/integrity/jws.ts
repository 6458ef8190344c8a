import { sign, type KeyObject } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from './base64url';
import { canonicalJson, canonicalJsonBytes } from './canonical-json';
import type { SignedPayload } from './types';

export const ED25519_SIGNATURE_LENGTH = 64;

/**
 * Signs `payloadBytes` as a JWS compact serialization with an Ed25519 key. The header is written
 * in RFC 8785 form so the same header object always yields the same bytes (and, Ed25519 being
 * deterministic, the same JWS).
 */
export function signCompact(header: Record<string, unknown>, payloadBytes: Uint8Array, privateKey: KeyObject): string {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('signCompact needs an Ed25519 private key');
  }
  if (header.alg !== 'EdDSA') throw new TypeError('signCompact only produces alg EdDSA');
  const signingInput = `${base64urlEncode(canonicalJson(header))}.${base64urlEncode(payloadBytes)}`;
  const signature = sign(null, Buffer.from(signingInput, 'ascii'), privateKey);
  return `${signingInput}.${base64urlEncode(signature)}`;
}

/** The registry's release signature: header exactly {"alg":"EdDSA","kid":…}, payload its JCS bytes. */
export function signPayload(payload: SignedPayload, privateKey: KeyObject, kid: string): string {
  if (kid === '') throw new TypeError('kid must not be empty');
  return signCompact({ alg: 'EdDSA', kid }, canonicalJsonBytes(payload), privateKey);
}

export class MalformedJwsError extends Error {
  override readonly name = 'MalformedJwsError';
}

/** A syntactically valid compact JWS, not yet checked for algorithm, key or signature. */
export interface ParsedCompactJws {
  header: Record<string, unknown>;
  payloadBytes: Uint8Array;
  signature: Uint8Array;
  /** ASCII `base64url(header).base64url(payload)`: the bytes the signature covers. */
  signingInput: Uint8Array;
}

function decodeSegment(segment: string, what: string): Uint8Array {
  const bytes = base64urlDecode(segment);
  if (bytes === undefined) throw new MalformedJwsError(`${what} is not unpadded base64url`);
  return bytes;
}

/** Throws MalformedJwsError; a caller that must not throw maps it to a result. */
export function parseCompactJws(jws: string): ParsedCompactJws {
  const segments = jws.split('.');
  if (segments.length !== 3) throw new MalformedJwsError(`expected 3 dot-separated segments, got ${segments.length}`);
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];
  if (headerSegment === '') throw new MalformedJwsError('protected header is empty');

  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(decodeSegment(headerSegment, 'protected header')));
  } catch (error) {
    if (error instanceof MalformedJwsError) throw error;
    throw new MalformedJwsError('protected header is not UTF-8 JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw new MalformedJwsError('protected header is not a JSON object');
  }

  const payloadBytes = decodeSegment(payloadSegment, 'payload');
  // The signature's length is the algorithm's business, checked once the header's alg is accepted,
  // so that an 'alg: none' or HS256 token is reported as a refused algorithm, not as malformed.
  const signature = decodeSegment(signatureSegment, 'signature');
  return {
    header: header as Record<string, unknown>,
    payloadBytes,
    signature,
    signingInput: new Uint8Array(Buffer.from(`${headerSegment}.${payloadSegment}`, 'ascii')),
  };
}
