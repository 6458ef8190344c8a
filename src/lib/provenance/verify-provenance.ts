import { type Bundle, bundleFromJSON } from '@sigstore/bundle';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { RFC3161Timestamp, X509Certificate } from '@sigstore/core';
import { PolicyError, type SignedEntity, toSignedEntity, VerificationError, Verifier } from '@sigstore/verify';
import { type IdentityExpectation, type SignerIdentity, signerIdentity } from './signer-identity';
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

/** A release asset as the subject-digest check sees it; `sha256` null: not hashed. */
export type ProvenanceAsset = { name: string; sha256: string | null };

export interface ProvenanceExpectation extends IdentityExpectation {
  /**
   * Every asset of the release; each must be a subject of the statement. Left out, the
   * subject-digest check waits for checkSubjects (the ingest verifies before it fetches).
   */
  assets?: readonly ProvenanceAsset[];
}

export interface VerifiedProvenance {
  ok: true;
  signer: SignerIdentity;
  /** The trusted time the signature was made at: the log's integrated time, else the RFC 3161 time. */
  signedAt: Date;
  /** The trusted root that verified it (a label, never a file path). */
  root: string;
  /** The SHA-256 digests the statement names as subjects, lower-case hex. */
  subjects: ReadonlySet<string>;
}

export interface ProvenanceFailure {
  ok: false;
  check: ProvenanceCheck;
  message: string;
}

export type ProvenanceOutcome = VerifiedProvenance | ProvenanceFailure;

const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const IN_TOTO_STATEMENT_TYPES = new Set(['https://in-toto.io/Statement/v1', 'https://in-toto.io/Statement/v0.1']);
// Build provenance is what is verified: a signed statement of another kind (a test report, an
// SBOM) from the same workflow says nothing about how the assets were built.
const SLSA_PROVENANCE_TYPES = new Set(['https://slsa.dev/provenance/v0.2', 'https://slsa.dev/provenance/v1']);

/** Whether `value` claims to be a Sigstore bundle (any version); other attestations pass through unverified. */
export function isSigstoreBundle(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const mediaType = (value as { mediaType?: unknown }).mediaType;
  return typeof mediaType === 'string' && /^application\/vnd\.dev\.sigstore\.bundle(\.v[0-9.]+)?\+json(;.*)?$/.test(mediaType);
}

/**
 * The subject alternative name of the bundle's signing certificate, NOT verified: only for a
 * client that must choose which forge's identity shape to check it against (a host it does not
 * know); verifyProvenance then checks it. Null when the bundle does not parse or has no certificate.
 */
export function unverifiedSignerName(json: unknown): string | null {
  try {
    const entity = toSignedEntity(bundleFromJSON(json));
    return entity.key.$case === 'certificate' ? (entity.key.certificate.subjectAltName ?? null) : null;
  } catch {
    return null;
  }
}

const fail = (check: ProvenanceCheck, message: string): ProvenanceFailure => ({ ok: false, check, message });

/** The sha256 digests the in-toto statement names as subjects, lower-case hex. */
function statementDigests(bundle: Bundle): Set<string> | ProvenanceFailure {
  if (bundle.content.$case !== 'dsseEnvelope')
    return fail('statement', 'the bundle signs a message, not an in-toto statement (a DSSE envelope)');
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return fail('statement', `the envelope's payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}`);
  let statement: unknown;
  try {
    statement = JSON.parse(envelope.payload.toString('utf8'));
  } catch {
    return fail('statement', 'the envelope payload is not JSON');
  }
  const { _type: type, subject, predicateType } = (statement ?? {}) as { _type?: unknown; subject?: unknown; predicateType?: unknown };
  if (typeof type !== 'string' || !IN_TOTO_STATEMENT_TYPES.has(type))
    return fail('statement', `the payload is not an in-toto statement (_type ${JSON.stringify(type)})`);
  if (typeof predicateType !== 'string' || !SLSA_PROVENANCE_TYPES.has(predicateType)) {
    return fail(
      'statement',
      `the statement is not SLSA build provenance (predicateType ${JSON.stringify(predicateType)}; expected ${[...SLSA_PROVENANCE_TYPES].join(' or ')})`,
    );
  }
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

/** RFC3161Timestamp's check of its signature over the signed attributes alone, whatever it timestamps. */
type SignatureOnly = { verifySignature(key: KeyObject): void };

function signedBy(timestamp: RFC3161Timestamp, leaf: X509Certificate): boolean {
  if (!leaf.serialNumber.equals(timestamp.signerSerialNumber) || !leaf.issuer.equals(timestamp.signerIssuer)) return false;
  try {
    // Not in the typings (it is what verify() calls after the message imprint); the imprint is
    // left out on purpose, so a tampered bundle timestamped by a known authority stays `timestamp`.
    (timestamp as unknown as SignatureOnly).verifySignature(createPublicKey({ key: leaf.publicKey, format: 'der', type: 'spki' }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the bundle has RFC 3161 timestamps and no root lists the authority that signed any of
 * them (the leaf the verifier selects by issuer and serial, whose key made the signature). Then a
 * timestamp failure says the bundle comes from a Sigstore nobody configured, not that its
 * timestamp is wrong.
 */
function timestampSignerUnknown(entity: SignedEntity, roots: readonly TrustedRootMaterial[]): boolean {
  return (
    entity.timestamps.some((timestamp) => timestamp.$case === 'timestamp-authority') &&
    !entity.timestamps.some(
      (timestamp) =>
        timestamp.$case === 'timestamp-authority' &&
        roots.some((root) =>
          root.material.timestampAuthorities.some(
            (authority) => authority.certChain[0] !== undefined && signedBy(timestamp.timestamp, authority.certChain[0]),
          ),
        ),
    )
  );
}

function cryptoFailure(error: unknown, root: string, tsaUnknown: boolean): ProvenanceFailure {
  if (error instanceof VerificationError) {
    const check = error.code === 'TIMESTAMP_ERROR' && tsaUnknown ? 'trusted-root' : (CHECK_OF_CODE[error.code] ?? 'bundle');
    const why =
      check === 'trusted-root' && error.code === 'TIMESTAMP_ERROR'
        ? 'no trusted root lists the timestamp authority that signed its timestamp'
        : error.message;
    return fail(check, `${why} (trusted root ${root})`);
  }
  if (error instanceof PolicyError) return fail('certificate-identity', error.message);
  return fail('bundle', `the bundle could not be verified: ${(error as Error).message}`);
}

/**
 * The trusted time of the signature: a log entry's integrated time only when the entry carries
 * an inclusion promise (the log's signed word for that time; an inclusion proof covers the entry,
 * not its time), else an RFC 3161 timestamp's, which the verifier checked.
 */
function signedAt(entity: SignedEntity): Date | null {
  for (const timestamp of entity.timestamps) {
    if (timestamp.$case === 'transparency-log' && timestamp.tlogEntry.inclusionPromise && Number(timestamp.tlogEntry.integratedTime) > 0) {
      return new Date(Number(timestamp.tlogEntry.integratedTime) * 1000);
    }
  }
  for (const timestamp of entity.timestamps) if (timestamp.$case === 'timestamp-authority') return timestamp.timestamp.signingTime;
  return null;
}

/** The subject-digest check: every asset's SHA-256 is a subject of the verified statement. */
export function checkSubjects(verified: VerifiedProvenance, assets: readonly ProvenanceAsset[]): ProvenanceOutcome {
  for (const asset of assets) {
    if (asset.sha256 === null)
      return fail(
        'subject-digest',
        `asset ${asset.name} was not hashed (over the hash budget), so the statement cannot be checked against it`,
      );
    if (!verified.subjects.has(asset.sha256.toLowerCase()))
      return fail('subject-digest', `the statement has no subject with the SHA-256 of asset ${asset.name} (${asset.sha256})`);
  }
  return verified;
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
  const tsaUnknown = timestampSignerUnknown(entity, roots);
  for (const root of roots) {
    try {
      new Verifier(root.material, root.thresholds).verify(entity);
      verifiedBy = root.name;
      break;
    } catch (error) {
      const failure = cryptoFailure(error, root.name, tsaUnknown);
      if (!deepest || (DEPTH[failure.check] ?? 0) > (DEPTH[deepest.check] ?? 0)) deepest = failure;
    }
  }
  if (verifiedBy === null) return deepest ?? fail('trusted-root', 'no trusted root is configured');

  if (entity.key.$case !== 'certificate')
    return fail('certificate-identity', 'the bundle is signed with a bare public key: it names no CI identity');
  const signer = signerIdentity(entity.key.certificate as X509Certificate, expected);
  if ('check' in signer) return fail(signer.check, signer.message);

  const time = signedAt(entity);
  if (!time) return fail('timestamp', 'the bundle carries no trusted time');
  const verified: VerifiedProvenance = { ok: true, signer, signedAt: time, root: verifiedBy, subjects: digests };
  return expected.assets ? checkSubjects(verified, expected.assets) : verified;
}
