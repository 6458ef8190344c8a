import { decodeCanonicalJson } from './canonical-json';
import { MalformedJwsError, parseCompactJws } from './jws';
import type { IntegrityAsset, SignedPayload } from './types';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export type PayloadDecoding = { ok: true; payload: SignedPayload } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assetProblem(asset: unknown, index: number): string | undefined {
  const where = `assets[${index}]`;
  if (!isRecord(asset)) return `${where} is not an object`;
  if (typeof asset.name !== 'string' || asset.name === '') return `${where}.name is not a non-empty string`;
  if (typeof asset.sha256 !== 'string' || !SHA256_HEX.test(asset.sha256)) return `${where}.sha256 is not 64 lowercase hex digits`;
  if (typeof asset.size !== 'number' || !Number.isSafeInteger(asset.size) || asset.size < 0) {
    return `${where}.size is not a non-negative integer`;
  }
  // Descriptive members are checked for type only: they do not take part in deciding authenticity.
  for (const member of ['contentType', 'arch', 'os'] as const) {
    if (member in asset && typeof asset[member] !== 'string') return `${where}.${member} is not a string`;
  }
  return undefined;
}

/**
 * Decodes signed payload bytes. Only called after the signature checked out, but still strict: the
 * bytes must be UTF-8 JSON in exactly RFC 8785 form, so that no two byte strings are accepted as
 * "the same" payload, and must carry every member a verifier relies on.
 */
export function decodeSignedPayload(bytes: Uint8Array): PayloadDecoding {
  const decoded = decodeCanonicalJson(bytes, 'payload');
  if (!decoded.ok) return decoded;
  const value = decoded.value;
  if (!isRecord(value)) return { ok: false, reason: 'payload is not a JSON object' };
  for (const member of ['slug', 'version', 'manifest_sha256'] as const) {
    if (typeof value[member] !== 'string') return { ok: false, reason: `payload.${member} is not a string` };
  }
  if (!Array.isArray(value.assets)) return { ok: false, reason: 'payload.assets is not an array' };
  const names = new Set<string>();
  for (const [index, asset] of value.assets.entries()) {
    const problem = assetProblem(asset, index);
    if (problem) return { ok: false, reason: `payload.${problem}` };
    const name = (asset as IntegrityAsset).name;
    if (names.has(name)) return { ok: false, reason: `payload lists asset '${name}' twice` };
    names.add(name);
  }
  return { ok: true, payload: value as unknown as SignedPayload };
}

/**
 * The `assets` of a release signature's payload, decoded WITHOUT checking the signature: what a
 * release record shows as `integrity.assets` (the spec's "same list"), never evidence of anything.
 * Null when the JWS or its payload is malformed.
 */
export function signedAssetsOf(jws: string): IntegrityAsset[] | null {
  try {
    const decoded = decodeSignedPayload(parseCompactJws(jws).payloadBytes);
    return decoded.ok ? decoded.payload.assets : null;
  } catch (error) {
    if (error instanceof MalformedJwsError) return null;
    throw error;
  }
}
