export { canonicalRepositoryUrl, derUtf8String, type ProvenanceForge, type SignerIdentity, subjectAlternativeNamePattern } from './signer-identity';
export { publicGoodTrustedRoot, TrustedRootError, type TrustedRootMaterial, trustedRootMaterial } from './trusted-roots';
export {
  isSigstoreBundle,
  type ProvenanceCheck,
  type ProvenanceExpectation,
  type ProvenanceFailure,
  type ProvenanceOutcome,
  type VerifiedProvenance,
  verifyProvenance,
} from './verify-provenance';
