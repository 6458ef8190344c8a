import { timingSafeEqual } from 'node:crypto';
import {
  type IntegrityAsset,
  type KeySet,
  type ReleaseRecord,
  type SignedPayload,
  sha256Hex,
  type VerificationErrorCode,
  verifyRelease,
} from '../integrity';

/**
 * How a mirror reads its upstream: the transport is injected (the server's SSRF-safe fetcher, a
 * test's fetch), so this module decides only what to trust.
 */
export interface UpstreamReader {
  /** A small JSON body (a release record, the key set); throws on a non-2xx answer or a network failure. */
  json(url: string): Promise<unknown>;
  /** A small binary body (the canonical manifest). */
  /** At most `maxBytes` (a document's bound when not given); more is an error. */
  bytes(url: string, maxBytes?: number): Promise<Uint8Array>;
  /**
   * An asset's SHA-256 and size, streamed, refusing (throwing) past `maxBytes`: a mirror never
   * takes more bytes than the signature says the asset has.
   */
  assetDigest(url: string, maxBytes: number): Promise<{ sha256: string; size: number }>;
}

/** Why a mirror refused an upstream release: the verifier's codes, and the mirror's own checks. */
export type MirrorRefusalCode = VerificationErrorCode | 'MALFORMED_RELEASE' | 'MANIFEST_MISMATCH' | 'ASSET_UNSIGNED' | 'ASSET_MISSING';

export interface MirrorRefusal {
  ok: false;
  code: MirrorRefusalCode;
  message: string;
}

/** An upstream release every byte of which was checked against its signature. */
export interface VerifiedUpstreamRelease {
  ok: true;
  /** The release record as upstream served it (its JWS verified; its other fields are upstream's word). */
  release: ReleaseRecord;
  payload: SignedPayload;
  kid: string;
  /** The RFC 8785 manifest bytes whose SHA-256 is the signed `manifest_sha256`. */
  manifest: Uint8Array;
  /** The key set the signature verified under. */
  keySet: KeySet;
  /** Each asset's signed entry, in the payload's order, its bytes checked. */
  assets: IntegrityAsset[];
}

const refuse = (code: MirrorRefusalCode, message: string): MirrorRefusal => ({ ok: false, code, message });

function sameHex(left: string, right: string): boolean {
  const a = Buffer.from(left.toLowerCase(), 'utf8');
  const b = Buffer.from(right.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function isReleaseRecord(value: unknown): value is ReleaseRecord {
  const r = value as ReleaseRecord | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.slug === 'string' &&
    typeof r.version === 'string' &&
    Array.isArray(r.assets) &&
    r.assets.every((a) => typeof a?.name === 'string' && typeof a.url === 'string')
  );
}

/**
 * Reads one release from an upstream registry and checks everything a mirror copies: the JWS under
 * upstream's key set (the same verifier `registry verify` uses), that it signs this slug and
 * version, that the manifest's bytes hash to the signed `manifest_sha256`, that the release lists
 * exactly the signed assets, and every asset's bytes against its signed SHA-256 and size. Any
 * failure is a refusal naming why; transport failures throw (try again later: not evidence).
 */
export async function verifyUpstreamRelease(
  upstream: string,
  slug: string,
  version: string,
  reader: UpstreamReader,
): Promise<VerifiedUpstreamRelease | MirrorRefusal> {
  const base = upstream.replace(/\/+$/, '');
  const releaseUrl = `${base}/api/plugins/${encodeURIComponent(slug)}/releases/${encodeURIComponent(version)}`;
  const release = await reader.json(releaseUrl);
  if (!isReleaseRecord(release)) return refuse('MALFORMED_RELEASE', `${slug}@${version}: upstream's release record is not one`);
  const keySet = (await reader.json(`${base}/.well-known/registry-key.json`)) as KeySet;
  if (!Array.isArray(keySet?.keys)) return refuse('KID_UNKNOWN', "upstream's key set is not one");

  const verdict = await verifyRelease({ release, keys: keySet, expected: { slug, version } });
  if (!verdict.ok) return refuse(verdict.code, `${slug}@${version}: ${verdict.message}`);
  const { payload, kid } = verdict;

  const manifest = await reader.bytes(`${releaseUrl}/manifest`);
  if (!sameHex(sha256Hex(manifest), payload.manifest_sha256)) {
    return refuse('MANIFEST_MISMATCH', `${slug}@${version}: the manifest's bytes do not hash to the signed manifest_sha256`);
  }

  const signed = new Map(payload.assets.map((asset) => [asset.name, asset]));
  const listed = new Set(release.assets.map((asset) => asset.name));
  const unsigned = release.assets.find((asset) => !signed.has(asset.name));
  if (unsigned)
    return refuse(
      'ASSET_UNSIGNED',
      `${slug}@${version}: asset '${unsigned.name}' is not in the signed payload (over upstream's hash budget); a mirror copies only what it can verify`,
    );
  const missing = payload.assets.find((asset) => !listed.has(asset.name));
  if (missing) return refuse('ASSET_MISSING', `${slug}@${version}: signed asset '${missing.name}' is not in the release`);

  for (const asset of release.assets) {
    const entry = signed.get(asset.name)!;
    let digest: { sha256: string; size: number };
    try {
      digest = await reader.assetDigest(asset.url, entry.size);
    } catch (error) {
      if (error instanceof AssetTooLargeError)
        return refuse('SIZE_MISMATCH', `${slug}@${version}: asset '${asset.name}' is over its signed ${entry.size} bytes`);
      throw error;
    }
    if (digest.size !== entry.size)
      return refuse('SIZE_MISMATCH', `${slug}@${version}: asset '${asset.name}' is ${digest.size} bytes, signed ${entry.size}`);
    if (!sameHex(digest.sha256, entry.sha256))
      return refuse('HASH_MISMATCH', `${slug}@${version}: asset '${asset.name}' has sha256 ${digest.sha256}, signed ${entry.sha256}`);
  }
  return { ok: true, release, payload, kid, manifest, keySet, assets: payload.assets };
}

/** What an UpstreamReader throws when an asset streams past the bytes it was allowed. */
export class AssetTooLargeError extends Error {
  constructor(url: string, maxBytes: number) {
    super(`${url}: more than ${maxBytes} bytes`);
    this.name = 'AssetTooLargeError';
  }
}
