import type { EntityManager } from 'typeorm';
import type { AuditActor } from '../../platform/audit/audit.service';
import type { PublishedBy } from '../../catalogue/plugins/entities/release.entity';
import type { DeclaredAsset } from './asset-ingest';

/** Where a release came from. */
export type IngestSource = 'push' | 'webhook' | 'reconcile';

/** A claim to make on the first release of a slug: this repository, owned by `ownerId`. */
export interface ClaimRequest {
  repoUrl: string;
  repoIdentity: string;
  /** Whether the claimer proved admin rights on the repository through its forge. */
  repoVerified: boolean;
  ownerId: string;
}

/** The plugin a release is for, by id, or the claim that creates it. Plain data, so a request can be stored as a job. */
export type IngestTarget = { pluginId: string } | { claim: ClaimRequest };

/** Whose right to publish is re-checked when the release is recorded (a CI push); null for a webhook. */
export interface Publisher {
  userId: string;
  tokenId: string | null;
}

/** One release to ingest, from a CI push or a release webhook. */
export interface IngestRequest {
  slug: string;
  /** The version or tag as given; a leading `v` is dropped. */
  version: string;
  manifestText: string;
  manifestFileName: string;
  assets: DeclaredAsset[];
  attestation: unknown | null;
  source: IngestSource;
  actor: AuditActor;
  publisher: Publisher | null;
  target: IngestTarget;
  /**
   * Runs inside the recording transaction right after a claim creates the plugin (not when the
   * claim lost a race and the release became an update), so what the claim consumes goes with it.
   */
  onClaim?: ClaimFollowUp;
  /**
   * Runs inside the recording transaction once the release is written, so what records the
   * release's origin (a webhook delivery marked delivered) commits with it or not at all.
   */
  onRecorded?: RecordedFollowUp;
  /** Shown on the release; by default a push is `token` and anything else `webhook`. */
  publishedBy?: PublishedBy;
  /** Aborted when nobody waits for the result any more (a push's client disconnected): the ingest stops and records nothing. */
  abandon?: AbortSignal;
}

export type ClaimFollowUp = (pluginId: string, manager: EntityManager) => Promise<void>;

export type RecordedFollowUp = (version: string, manager: EntityManager) => Promise<void>;

export interface IngestResult {
  slug: string;
  version: string;
  claimed: boolean;
  /** Problems that did not stop the release (a README that could not be read, ...). */
  warnings: string[];
}
