export {
  canonicalRepositoryUrl,
  derUtf8String,
  expectedIssuers,
  type IdentityExpectation,
  type ProvenanceForge,
  type SignerIdentity,
  subjectAlternativeNamePattern,
} from './signer-identity';
export { publicGoodTrustedRoot, TrustedRootError, type TrustedRootMaterial, trustedRootMaterial } from './trusted-roots';
export {
  checkSubjects,
  isSigstoreBundle,
  type ProvenanceAsset,
  type ProvenanceCheck,
  type ProvenanceExpectation,
  type ProvenanceFailure,
  type ProvenanceOutcome,
  unverifiedSignerName,
  type VerifiedProvenance,
  verifyProvenance,
} from './verify-provenance';
