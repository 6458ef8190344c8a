import type { X509Certificate } from '@sigstore/core';

/** Forge families whose CI identities Fulcio can certify. */
export type ProvenanceForge = 'github' | 'gitlab' | 'gitea' | 'forgejo';

/** Who signed, as read from the Fulcio certificate. */
export interface SignerIdentity {
  /** The repository's web URL as the certificate names it. */
  repository: string;
  /** The workflow file (GitHub-style forges) or CI configuration path (GitLab) within it. */
  workflow: string;
  ref: string;
  /** The OIDC issuer that vouched for the CI job (Fulcio's issuer extension), null when absent. */
  issuer: string | null;
  /** The certificate's subject alternative name, verbatim. */
  subjectAlternativeName: string;
}

// Fulcio's certificate extensions (sigstore/fulcio docs/oid-info.md). The 1.1 and 1.6 forms are
// the deprecated ones holding raw bytes; from 1.8 on each value is a DER-encoded UTF8String.
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';
const OID_ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const OID_SOURCE_REPOSITORY_URI = '1.3.6.1.4.1.57264.1.12';
const OID_SOURCE_REPOSITORY_REF = '1.3.6.1.4.1.57264.1.14';

const UTF8_STRING = 0x0c;

/**
 * The text of a DER UTF8String (tag, definite length, bytes), or null when `der` is anything
 * else. Reading these values as raw text (as the legacy extensions are read) would keep the tag
 * and length bytes in front of the string and no comparison would ever match.
 */
export function derUtf8String(der: Buffer): string | null {
  if (der.length < 2 || der[0] !== UTF8_STRING) return null;
  let length = der[1];
  let offset = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || der.length < 2 + octets) return null;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[2 + i];
    offset = 2 + octets;
  }
  if (offset + length !== der.length) return null;
  return der.subarray(offset).toString('utf8');
}

function extensionText(certificate: X509Certificate, oid: string, encoding: 'der' | 'raw'): string | null {
  const extension = certificate.extension(oid);
  if (!extension) return null;
  return encoding === 'der' ? derUtf8String(extension.value) : extension.value.toString('utf8');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The repository URL as a SAN spells it: no trailing slash, no `.git`. */
export function canonicalRepositoryUrl(repoUrl: string): string {
  return repoUrl.replace(/\/+$/, '').replace(/\.git$/i, '');
}

/**
 * The pattern a SAN must match to name this repository's CI, ANCHORED at both ends and with the
 * repository URL ESCAPED: `@sigstore/verify` tests its policy unanchored, so there
 * `https://github.com/acme/app` would also accept `https://github.com/acme/app-evil/...` and
 * `https://github.com/evil/x?https://github.com/acme/app/...`. Case-insensitive because the
 * forges route owner and repository names so; the workflow is compared exactly elsewhere.
 *
 * - GitHub Actions (and Gitea/Forgejo Actions, which copy its claims):
 *   `https://github.com/<owner>/<repo>/.github/workflows/<file>@<ref>`
 * - GitLab CI: `https://gitlab.com/<group>/<project>//<ci config path>@<ref>`
 */
export function subjectAlternativeNamePattern(forge: ProvenanceForge, repoUrl: string): RegExp {
  const repository = escapeRegExp(canonicalRepositoryUrl(repoUrl));
  const workflow = forge === 'gitlab' ? '/([^@]+)' : '(\\.(?:github|gitea|forgejo)/workflows/[^@/]+)';
  return new RegExp(`^${repository}/${workflow}@([^@]+)$`, 'i');
}

export type IdentityFailure = { check: 'certificate-identity' | 'certificate-workflow'; message: string };

/**
 * Reads the signer from a verified Fulcio certificate and checks it names `repoUrl` (and, for a
 * trusted publisher, `workflow`). The source-repository extension, when the certificate has it,
 * must name the same repository: a reusable workflow from elsewhere is not this repository's build.
 */
export function signerIdentity(
  certificate: X509Certificate,
  expected: { forge: ProvenanceForge; repoUrl: string; workflow: string | null },
): SignerIdentity | IdentityFailure {
  const san = certificate.subjectAltName;
  const repository = canonicalRepositoryUrl(expected.repoUrl);
  if (!san) return { check: 'certificate-identity', message: 'the signing certificate has no subject alternative name' };
  const match = subjectAlternativeNamePattern(expected.forge, repository).exec(san);
  if (!match) return { check: 'certificate-identity', message: `the certificate identity ${san} is not a CI workflow of ${repository}` };
  const sourceRepository = extensionText(certificate, OID_SOURCE_REPOSITORY_URI, 'der');
  if (sourceRepository !== null && canonicalRepositoryUrl(sourceRepository).toLowerCase() !== repository.toLowerCase()) {
    return { check: 'certificate-identity', message: `the certificate's source repository ${sourceRepository} is not ${repository}` };
  }
  const [, workflow, sanRef] = match;
  if (expected.workflow !== null && expected.workflow !== workflow) {
    return { check: 'certificate-workflow', message: `the bundle was signed by workflow ${workflow}, not by the trusted publisher's ${expected.workflow}` };
  }
  const issuer = extensionText(certificate, OID_ISSUER_V2, 'der') ?? extensionText(certificate, OID_ISSUER_V1, 'raw');
  const ref = extensionText(certificate, OID_SOURCE_REPOSITORY_REF, 'der') ?? sanRef;
  return { repository: san.slice(0, repository.length), workflow, ref, issuer, subjectAlternativeName: san };
}
