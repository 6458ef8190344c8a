import { canonicalJsonBytes, CanonicalJsonError, decodeSignedPayload, type SignedPayload } from '../../lib/integrity';
import type { SignReleaseInput } from './signing-key.types';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The exact document the registry signs: `{slug, version, manifest_sha256, assets}` with each
 * asset reduced to `name, sha256, size, contentType, arch, os, attestation` (attestation null when
 * absent). It is checked with the verifier's own strict decoder, so the registry never signs a
 * payload that clients would reject as malformed.
 */
export function signedPayloadOf(input: SignReleaseInput): SignedPayload {
  if (!SHA256_HEX.test(input.manifest_sha256)) {
    throw new TypeError(`cannot sign ${input.slug}@${input.version}: manifest_sha256 is not 64 lowercase hex digits`);
  }
  const payload: SignedPayload = {
    slug: input.slug,
    version: input.version,
    manifest_sha256: input.manifest_sha256,
    assets: input.assets.map((asset) => ({
      name: asset.name,
      sha256: asset.sha256,
      size: asset.size,
      contentType: asset.contentType,
      arch: asset.arch,
      os: asset.os,
      attestation: asset.attestation ?? null,
    })),
  };
  let bytes: Uint8Array;
  try {
    bytes = canonicalJsonBytes(payload);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new TypeError(`cannot sign ${input.slug}@${input.version}: ${error.message}`);
    throw error;
  }
  const decoded = decodeSignedPayload(bytes);
  if (!decoded.ok) throw new TypeError(`cannot sign ${input.slug}@${input.version}: ${decoded.reason}`);
  return payload;
}
