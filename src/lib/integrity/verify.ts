import { timingSafeEqual, verify as verifySignature } from 'node:crypto';
import { digestAsset, type AssetDigest } from './asset-digest';
import { ED25519_SIGNATURE_LENGTH, MalformedJwsError, parseCompactJws, type ParsedCompactJws } from './jws';
import { KeyResolver, type KeySetSource } from './key-resolver';
import { publicKeyFromJwk } from './keys';
import { decodeSignedPayload } from './signed-payload';
import type { IntegrityAsset, KeySet, PublicJwk, ReleaseRecord, SignedPayload } from './types';
import { failure, type VerificationFailure } from './verification-errors';

/** Header members that would let the token choose its own key, or demand unknown processing. */
const REFUSED_HEADER_MEMBERS = ['jwk', 'jku', 'x5u', 'x5c', 'crit'] as const;

/** An asset to check: its name, and optionally its bytes from exactly one source. */
export interface AssetToVerify {
  name: string;
  bytes?: Uint8Array;
  /** A file to hash as a stream. */
  path?: string;
  stream?: AsyncIterable<Uint8Array>;
}

export interface VerifyReleaseInput {
  /** The release record as served; only `integrity.jws` is trusted, and only once verified. */
  release: ReleaseRecord;
  keys: KeySetSource;
  /** The release the caller asked for; a signature over any other release is refused. */
  expected: { slug: string; version: string };
  asset?: AssetToVerify;
}

export interface VerificationSuccess {
  ok: true;
  payload: SignedPayload;
  kid: string;
  /** The signed entry of the checked asset, when one was given. */
  asset?: IntegrityAsset;
  /** Set when the key set had to be refreshed, so a caching client can store it. */
  refreshedKeySet?: KeySet;
}

export type VerificationResult = VerificationSuccess | VerificationFailure;
export type AssetCheckResult = { ok: true; asset: IntegrityAsset } | VerificationFailure;

/** The header rules every registry JWS obeys: EdDSA, a kid, no key or processing chosen by the token. */
export function headerProblem(header: Record<string, unknown>): VerificationFailure | undefined {
  if (header.alg !== 'EdDSA') {
    return failure('ALGORITHM_REFUSED', `alg ${JSON.stringify(header.alg ?? null)} refused; only EdDSA is accepted`);
  }
  for (const member of REFUSED_HEADER_MEMBERS) {
    if (member in header) {
      return failure('ALGORITHM_REFUSED', `header member '${member}' refused: keys come only from the registry key set`);
    }
  }
  if (typeof header.kid !== 'string' || header.kid === '') return failure('MALFORMED_JWS', 'protected header has no kid');
  return undefined;
}

function signatureHolds(jws: ParsedCompactJws, jwk: PublicJwk): boolean {
  try {
    return verifySignature(null, jws.signingInput, publicKeyFromJwk(jwk), jws.signature);
  } catch {
    return false;
  }
}

/** Checks alg, kid and the Ed25519 signature; refreshes the key set at most once. */
export async function checkSignature(jws: ParsedCompactJws, kid: string, resolver: KeyResolver): Promise<VerificationFailure | undefined> {
  let jwk = await resolver.find(kid);
  if (!jwk && (await resolver.refresh())) jwk = await resolver.find(kid);
  if (!jwk) return failure('KID_UNKNOWN', `kid ${kid} absent from key set after refresh`);
  if (signatureHolds(jws, jwk)) return undefined;
  // A kid is a thumbprint, so a refreshed set rarely helps here; the spec still asks for one try.
  if (await resolver.refresh()) {
    const refreshed = await resolver.find(kid);
    if (refreshed && signatureHolds(jws, refreshed)) return undefined;
  }
  return failure('SIGNATURE_INVALID', `Ed25519 signature does not verify under kid ${kid}`);
}

function sameHex(left: string, right: string): boolean {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks one asset against the signed payload (never against the unsigned release list). */
export async function checkAsset(payload: SignedPayload, asset: AssetToVerify): Promise<AssetCheckResult> {
  const signed = payload.assets.find((entry) => entry.name === asset.name);
  if (!signed) {
    return failure('ASSET_NOT_SIGNED', `asset '${asset.name}' is absent from the signed payload (asset was over the hash budget)`);
  }
  const sources = [asset.bytes, asset.path, asset.stream].filter((source) => source !== undefined).length;
  if (sources > 1) throw new TypeError('give at most one of bytes, path or stream');
  if (sources === 0) return { ok: true, asset: signed };

  let digest: AssetDigest;
  if (asset.bytes !== undefined) digest = await digestAsset({ bytes: asset.bytes });
  else if (asset.path !== undefined) digest = await digestAsset({ path: asset.path });
  else digest = await digestAsset({ stream: asset.stream as AsyncIterable<Uint8Array> });

  if (!sameHex(digest.sha256, signed.sha256)) {
    return failure('HASH_MISMATCH', `asset '${asset.name}' has sha256 ${digest.sha256}, signed ${signed.sha256}`);
  }
  if (digest.size !== signed.size) {
    return failure('SIZE_MISMATCH', `asset '${asset.name}' is ${digest.size} bytes, signed ${signed.size}`);
  }
  return { ok: true, asset: signed };
}

/**
 * Verifies a release's signed integrity and, optionally, one asset. Every verdict comes back as a
 * result; it throws only for caller errors and for failures of the key-set fetcher or the asset
 * source (I/O, not evidence about the release).
 */
export async function verifyRelease(input: VerifyReleaseInput): Promise<VerificationResult> {
  const integrity = input.release.integrity;
  if (integrity === undefined || integrity === null) {
    return failure('INTEGRITY_MISSING', 'release has no integrity record (legacy release)');
  }
  if (typeof integrity.jws !== 'string') return failure('MALFORMED_JWS', 'integrity.jws is not a string');

  let jws: ParsedCompactJws;
  try {
    jws = parseCompactJws(integrity.jws);
  } catch (error) {
    if (error instanceof MalformedJwsError) return failure('MALFORMED_JWS', error.message);
    throw error;
  }
  const refused = headerProblem(jws.header);
  if (refused) return refused;
  if (jws.signature.length !== ED25519_SIGNATURE_LENGTH) {
    return failure('MALFORMED_JWS', `signature is ${jws.signature.length} bytes, Ed25519 signatures are ${ED25519_SIGNATURE_LENGTH}`);
  }

  const kid = jws.header.kid as string;
  const resolver = new KeyResolver(input.keys);
  const badSignature = await checkSignature(jws, kid, resolver);
  if (badSignature) return badSignature;

  const decoded = decodeSignedPayload(jws.payloadBytes);
  if (!decoded.ok) return failure('MALFORMED_JWS', decoded.reason);
  const { payload } = decoded;
  const { slug, version } = input.expected;
  if (payload.slug !== slug || payload.version !== version) {
    return failure('PAYLOAD_MISMATCH', `signed payload is for ${payload.slug}@${payload.version}, not ${slug}@${version}`);
  }

  const refreshed = resolver.refreshedKeySet ? { refreshedKeySet: resolver.refreshedKeySet } : {};
  if (!input.asset) return { ok: true, payload, kid, ...refreshed };
  const assetResult = await checkAsset(payload, input.asset);
  if (!assetResult.ok) return assetResult;
  return { ok: true, payload, kid, asset: assetResult.asset, ...refreshed };
}
