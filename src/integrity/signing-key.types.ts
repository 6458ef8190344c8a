import type { IntegrityAsset, PublicJwk } from '../lib/integrity';

/** `current` signs; `previous` still verifies (it stays in the key set); `retired` has left the key set. */
export const SIGNING_KEY_STATES = ['current', 'previous', 'retired'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];

/** A signing key as the rest of the application sees it: never the entity, never private material. */
export interface SigningKeyInfo {
  kid: string;
  state: SigningKeyState;
  publicJwk: PublicJwk;
  createdAt: Date;
  demotedAt: Date | null;
  retiredAt: Date | null;
}

/** What one rotation did: the new current key, and the keys it displaced (null when there was none). */
export interface KeyRotation {
  kid: string;
  previousKid: string | null;
  retiredKid: string | null;
}

/** Outcome of making sure a current key exists. */
export interface EnsuredKey {
  kid: string;
  /** True only for the caller whose insert became the current key. */
  created: boolean;
}

/** An integrity asset as callers hand it over; extra members (url, hashed, ...) are dropped before signing. */
export type IntegrityAssetInput = Omit<IntegrityAsset, 'attestation'> & { attestation?: unknown };

export interface SignReleaseInput {
  slug: string;
  version: string;
  manifest_sha256: string;
  assets: readonly IntegrityAssetInput[];
}

export interface ReleaseSignature {
  /** JWS compact serialization; protected header exactly {"alg":"EdDSA","kid":…}. */
  jws: string;
  kid: string;
}
