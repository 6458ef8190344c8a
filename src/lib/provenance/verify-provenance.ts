import { type Bundle, bundleFromJSON } from '@sigstore/bundle';
import type { X509Certificate } from '@sigstore/core';
import { PolicyError, type SignedEntity, toSignedEntity, VerificationError, Verifier } from '@sigstore/verify';
import { type ProvenanceForge, type SignerIdentity, signerIdentity } from './signer-identity';
import type { TrustedRootMaterial } from './trusted-roots';

/** The check a bundle failed: the name the 422 carries. */
export type ProvenanceCheck =
  | 'bundle'
  | 'statement'
  | 'trusted-root'
  | 'timestamp'
  | 'tlog'
  | 'signature'
  | 'certificate-identity'
  | 'certificate-workflow'
  | 'subject-digest';

export interface ProvenanceExpectation {
  forge: ProvenanceForge;
  /** The plugin's repository (its forge URL). */
  repoUrl: string;
  /** The trusted publisher's workflow when the release came through one, else null. */
  workflow: string | null;
  /** Every asset of the release; each must be a subject of the statement. `sha256` null: not hashed. */
  assets: readonly { name: string; sha256: string | null }[];
}

export interface VerifiedProvenance {
  ok: true;
  signer: SignerIdentity;
  /** The trusted time the signature was made at: the log's integrated time, else the RFC 3161 time. */
  signedAt: Date;
  /** The trusted root that verified it. */
  root: string;
}

export interface ProvenanceFailure {
  ok: false;
  check: ProvenanceCheck;
  message: string;
}

export type ProvenanceOutcome = VerifiedProvenance | ProvenanceFailure;

const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const IN_TOTO_STATEMENT_TYPES = new Set(['https://in-toto.io/Statement/v1', 'https://in-toto.io/Statement/v0.1']);

/** Whether `value` claims to be a Sigstore bundle (any version); other attestations pass through unverified. */
export function isSigstoreBundle(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const mediaType = (value as { mediaType?: unknown }).mediaType;
  return typeof mediaType === 'string' && /^application\/vnd\.dev\.sigstore\.bundle(\.v[0-9.]+)?\+json(;.*)?$/.test(mediaType);
}

const fail = (check: ProvenanceCheck, message: string): ProvenanceFailure => ({ ok: false, check, message });

/** The sha256 digests the in-toto statement names as subjects, lower-case hex. */
function statementDigests(bundle: Bundle): Set<string> | ProvenanceFailure {
  if (bundle.content.$case !== 'dsseEnvelope') return fail('statement', 'the bundle signs a message, not an in-toto statement (a DSSE envelope)');
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return fail('statement', `the envelope's payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}`);
  let statement: unknown;
  try {
    statement = JSON.parse(envelope.payload.toString('utf8'));
  } catch {
    return fail('statement', 'the envelope payload is not JSON');
  }
  const { _type: type, subject } = (statement ?? {}) as { _type?: unknown; subject?: unknown };
  if (typeof type !== 'string' || !IN_TOTO_STATEMENT_TYPES.has(type)) return fail('statement', `the payload is not an in-toto statement (_type ${JSON.stringify(type)})`);
  if (!Array.isArray(subject)) return fail('statement', 'the statement has no subject list');
  const digests = new Set<string>();
  for (const item of subject as { digest?: { sha256?: unknown } }[]) {
    const sha256 = item?.digest?.sha256;
    if (typeof sha256 === 'string') digests.add(sha256.toLowerCase());
  }
  return digests;
}

const CHECK_OF_CODE: Record<string, ProvenanceCheck> = {
  CERTIFICATE_ERROR: 'trusted-root',
  PUBLIC_KEY_ERROR: 'trusted-root',
  TIMESTAMP_ERROR: 'timestamp',
  TLOG_ERROR: 'tlog',
  TLOG_INCLUSION_PROOF_ERROR: 'tlog',
  TLOG_INCLUSION_PROMISE_ERROR: 'tlog',
  TLOG_MISSING_INCLUSION_ERROR: 'tlog',
  TLOG_BODY_ERROR: 'tlog',
  SIGNATURE_ERROR: 'signature',
};

/** How far a root got before failing (the verifier's order), so the most telling failure is reported. */
const DEPTH: Partial<Record<ProvenanceCheck, number>> = { timestamp: 1, 'trusted-root': 2, tlog: 3, signature: 4 };

function cryptoFailure(error: unknown, root: string): ProvenanceFailure {
  if (error instanceof VerificationError) return fail(CHECK_OF_CODE[error.code] ?? 'signature', `${error.message} (trusted root ${root})`);
  if (error instanceof PolicyError) return fail('certificate-identity', error.message);
  return fail('bundle', `the bundle could not be verified: ${(error as Error).message}`);
}

function signedAt(entity: SignedEntity): Date | null {
  for (const timestamp of entity.timestamps) {
    if (timestamp.$case === 'transparency-log' && Number(timestamp.tlogEntry.integratedTime) > 0) return new Date(Number(timestamp.tlogEntry.integratedTime) * 1000);
  }
  for (const timestamp of entity.timestamps) if (timestamp.$case === 'timestamp-authority') return timestamp.timestamp.signingTime;
  return null;
}

/**
 * Verifies a Sigstore bundle as the build provenance of a release, offline: the signature, its
 * certificate chain (or key) and log entry or timestamp against one of `roots` with that root's
 * thresholds; then the signer is the repository's CI (and the trusted publisher's workflow); then
 * every asset's SHA-256 is a subject of the in-toto statement. The first failed check is the answer.
 */
export function verifyProvenance(json: unknown, expected: ProvenanceExpectation, roots: readonly TrustedRootMaterial[]): ProvenanceOutcome {
  let bundle: Bundle;
  let entity: SignedEntity;
  try {
    bundle = bundleFromJSON(json);
    entity = toSignedEntity(bundle);
  } catch (error) {
    return fail('bundle', `not a valid Sigstore bundle: ${(error as Error).message}`);
  }
  const digests = statementDigests(bundle);
  if (!(digests instanceof Set)) return digests;

  let verifiedBy: string | null = null;
  let deepest: ProvenanceFailure | null = null;
  for (const root of roots) {
    try {
      new Verifier(root.material, root.thresholds).verify(entity);
      verifiedBy = root.name;
      break;
    } catch (error) {
      const failure = cryptoFailure(error, root.name);
      if (!deepest || (DEPTH[failure.check] ?? 0) > (DEPTH[deepest.check] ?? 0)) deepest = failure;
    }
  }
  if (verifiedBy === null) return deepest ?? fail('trusted-root', 'no trusted root is configured');

  if (entity.key.$case !== 'certificate') return fail('certificate-identity', 'the bundle is signed with a bare public key: it names no CI identity');
  const signer = signerIdentity(entity.key.certificate as X509Certificate, expected);
  if ('check' in signer) return fail(signer.check, signer.message);

  for (const asset of expected.assets) {
    if (asset.sha256 === null) return fail('subject-digest', `asset ${asset.name} was not hashed (over the hash budget), so the statement cannot be checked against it`);
    if (!digests.has(asset.sha256.toLowerCase())) return fail('subject-digest', `the statement has no subject with the SHA-256 of asset ${asset.name} (${asset.sha256})`);
  }
  const time = signedAt(entity);
  if (!time) return fail('timestamp', 'the bundle carries no trusted time');
  return { ok: true, signer, signedAt: time, root: verifiedBy };
}
