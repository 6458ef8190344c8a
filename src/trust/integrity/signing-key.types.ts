import type { IntegrityAsset, PublicJwk } from '../../lib/integrity';

/**
 * `current` signs; `previous` still verifies (it stays in the key set); `draining` was displaced by
 * a rotation and stays in the key set until every release it signed is re-signed with the current
 * key (rotations in quick succession leave several draining at once); `retired` has left the key set.
 */
export const SIGNING_KEY_STATES = ['current', 'previous', 'draining', 'retired'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];

/** A signing key as the rest of the application sees it: never the entity, never private material. */
export interface SigningKeyInfo {
  kid: string;
  state: SigningKeyState;
  publicJwk: PublicJwk;
  createdAt: Date;
  demotedAt: Date | null;
  drainingAt: Date | null;
  drainedAt: Date | null;
  retiredAt: Date | null;
  /** Releases whose signature still names this key and wait to be re-signed (draining and retired keys; 0 otherwise). */
  pending: number;
  /** Releases of this key whose stored signature did not verify, so they were not re-signed. */
  failed: number;
  /** Releases re-signed away from this key so far. */
  resigned: number;
}

/** What one rotation did: the new current key, and what happened to the keys it displaced. */
export interface KeyRotation {
  kid: string;
  /** The key that was current and is now previous (null only if there was no key at all). */
  previousKid: string | null;
  /** The key that was previous and now drains: its releases are being re-signed. */
  drainingKid: string | null;
  /** Keys that left the key set in this rotation: a drained key, and a previous key that signed nothing. */
  retiredKids: string[];
  /** Releases still signed by the draining key, which the re-signing worker (or `registry keys resign`) moves to the new key. */
  pending: number;
  /** Keys an earlier rotation left draining, which keep draining (and stay in the key set), with the releases each still has. */
  stillDraining: DrainingKey[];
}

export interface DrainingKey {
  kid: string;
  pending: number;
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
