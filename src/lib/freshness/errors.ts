/** Why a freshness statement was refused; each refusal has its own code. */
export const FRESHNESS_ERRORS = {
  MISSING: 'The answer carries no freshness statement: nothing says it is current.',
  MALFORMED_JWS: 'The statement is not a well-formed compact JWS.',
  ALGORITHM_REFUSED: 'The JWS asks for something other than EdDSA with a key from the key set.',
  WRONG_TYPE: 'The JWS is not a freshness statement (its typ differs): another registry signature was passed off as one.',
  KID_UNKNOWN: "The statement's key is absent from the registry's key set, even after one refresh.",
  SIGNATURE_INVALID: 'The Ed25519 signature does not verify: the statement was altered or not signed by the registry.',
  MALFORMED_STATEMENT: 'The signed statement is not the canonical document with every member in form.',
  SLUG_MISMATCH: 'A statement for another plugin was served (mix-and-match).',
  PLATFORM_MISMATCH: 'A statement for another platform was served.',
  EXPIRED: 'The statement is past its expiry: the answer is frozen (replayed, or from a registry that stopped signing).',
  ISSUED_IN_FUTURE: "The statement's issue time is ahead of this clock by more than the allowed skew.",
  TREE_SIZE_ROLLBACK: 'The statement names a smaller transparency log than seen before: an older answer was replayed.',
  ISSUED_AT_ROLLBACK: 'The statement was issued before one seen earlier: an older answer was replayed.',
  ANSWER_MISMATCH:
    'The statement verifies but names another version or asset than the answer carrying it (a client-side check of the answer).',
  VERSION_ROLLBACK: 'The statement names a lower version than seen before, and the log did not grow (a yank would have grown it).',
} as const satisfies Record<string, string>;

export type FreshnessErrorCode = keyof typeof FRESHNESS_ERRORS;
