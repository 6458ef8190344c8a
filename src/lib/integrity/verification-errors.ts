/**
 * Why a release failed verification. The first five rows restate the spec's consumer-side table
 * ("Errors"); the rest name failures the spec folds into "signature verification fails" but a
 * consumer or operator benefits from telling apart.
 */
export const VERIFICATION_ERRORS = {
  INTEGRITY_MISSING: {
    symptom: 'integrity missing',
    meaning: 'Legacy release, ingested before signing existed; nothing vouches for its assets.',
  },
  ASSET_NOT_SIGNED: {
    symptom: 'signed payload lacks the asset',
    meaning: 'Asset was over the hash budget (or is not part of this release); it cannot be verified.',
  },
  HASH_MISMATCH: {
    symptom: 'hash mismatch',
    meaning: 'Asset altered or corrupted.',
  },
  SIZE_MISMATCH: {
    symptom: 'size mismatch',
    meaning: 'Asset length differs from the signed size although its hash matched: the signed record is inconsistent.',
  },
  SIGNATURE_INVALID: {
    symptom: 'signature verification fails',
    meaning: 'Wrong kid, stale cached key set, or compromised registry (checked again after one key-set refresh).',
  },
  KID_UNKNOWN: {
    symptom: 'kid absent from key set after refresh',
    meaning: 'Release predates both current keys.',
  },
  PAYLOAD_MISMATCH: {
    symptom: 'signed payload names another release',
    meaning: 'A validly signed payload of a different slug or version was served (mix-and-match or replay).',
  },
  MALFORMED_JWS: {
    symptom: 'malformed JWS',
    meaning: 'The signature or its payload is not a well-formed, canonical registry JWS.',
  },
  ALGORITHM_REFUSED: {
    symptom: 'algorithm refused',
    meaning: 'The JWS asks for something other than EdDSA with a key from the key set (alg, embedded or remote key, crit).',
  },
} as const satisfies Record<string, { symptom: string; meaning: string }>;

export type VerificationErrorCode = keyof typeof VERIFICATION_ERRORS;

export const VERIFICATION_ERROR_CODES = Object.keys(VERIFICATION_ERRORS) as VerificationErrorCode[];

export interface VerificationFailure {
  ok: false;
  code: VerificationErrorCode;
  message: string;
}

export function failure(code: VerificationErrorCode, message: string): VerificationFailure {
  return { ok: false, code, message };
}
