import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toTrustMaterial, type TrustMaterial, type VerifierOptions } from '@sigstore/verify';
import publicGoodRoot from './public-good-trusted-root.json';

/**
 * A Sigstore trusted root (the `application/vnd.dev.sigstore.trustedroot+json` document) ready
 * to verify against, with the thresholds its contents imply. Verification never leaves the
 * process: the root is data, there is no TUF refresh.
 */
export interface TrustedRootMaterial {
  /**
   * Its label in problems and audit entries: `public-good`, or `operator root #n (<file name>)`;
   * an operator's file path is for the server's log only (`source`).
   */
  name: string;
  /** Where it was read from (the operator's file path), for the server's log; null when shipped. */
  source: string | null;
  material: TrustMaterial;
  thresholds: Required<Pick<VerifierOptions, 'tlogThreshold' | 'ctlogThreshold' | 'timestampThreshold'>>;
}

export class TrustedRootError extends Error {}

/**
 * What a root demands follows from what it lists: a root with transparency logs wants one log
 * entry per bundle, one with CT logs an SCT per certificate, and every bundle needs one trusted
 * time (a log's integrated time or an RFC 3161 timestamp). A root of just a CA and a timestamp
 * authority (a private Sigstore without Rekor) therefore verifies with a log threshold of 0.
 */
function thresholdsOf(root: TrustedRoot): TrustedRootMaterial['thresholds'] {
  return { tlogThreshold: root.tlogs.length > 0 ? 1 : 0, ctlogThreshold: root.ctlogs.length > 0 ? 1 : 0, timestampThreshold: 1 };
}

/** Parses a trusted root JSON document; a document that names no certificate authority is refused. */
export function trustedRootMaterial(name: string, json: unknown, source: string | null = null): TrustedRootMaterial {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new TrustedRootError(`${name}: a trusted root is a JSON object`);
  const mediaType = (json as { mediaType?: unknown }).mediaType;
  if (typeof mediaType !== 'string' || !mediaType.startsWith('application/vnd.dev.sigstore.trustedroot')) {
    throw new TrustedRootError(
      `${name}: mediaType must be application/vnd.dev.sigstore.trustedroot+json (got ${JSON.stringify(mediaType)})`,
    );
  }
  let root: TrustedRoot;
  let material: TrustMaterial;
  try {
    root = TrustedRoot.fromJSON(json);
    material = toTrustMaterial(root);
  } catch (error) {
    throw new TrustedRootError(`${name}: not a trusted root: ${(error as Error).message}`);
  }
  if (material.certificateAuthorities.length === 0) throw new TrustedRootError(`${name}: lists no certificate authority`);
  return { name, source, material, thresholds: thresholdsOf(root) };
}

/**
 * The Sigstore public-good instance's root (Fulcio, Rekor, CT logs, timestamp authority), shipped
 * with the registry: sigstore/root-signing `targets/trusted_root.json` (Apache-2.0), as of that
 * repository's commit 60cf2ce8 (2026-08-21). Refresh it by hand when the root rotates.
 */
export function publicGoodTrustedRoot(): TrustedRootMaterial {
  return trustedRootMaterial('public-good', publicGoodRoot);
}
