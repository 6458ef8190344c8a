import type { X509Certificate } from '@sigstore/core';

/** Forge families whose CI identities Fulcio can certify. */
export type ProvenanceForge = 'github' | 'gitlab' | 'gitea' | 'forgejo';

/** Who signed, as read from the Fulcio certificate. */
export interface SignerIdentity {
  /** The web URL of the repository whose build it was (the source repository). */
  repository: string;
  /**
   * The workflow that signed (the SAN's): relative to the repository when it lives there, else
   * prefixed with its own repository (`org/shared/.github/workflows/x.yml`; GitLab:
   * `host/group/project//ci.yml`), as the trusted publishers' CI identities name it.
   */
  workflow: string;
  ref: string;
  /** The OIDC issuer that vouched for the CI job (Fulcio's issuer extension). */
  issuer: string | null;
  /** The certificate's subject alternative name, verbatim. */
  subjectAlternativeName: string;
}

// Fulcio's certificate extensions (sigstore/fulcio docs/oid-info.md). The 1.1 to 1.6 forms are
// the deprecated ones holding raw bytes; from 1.8 on each value is a DER-encoded UTF8String.
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';
const OID_GITHUB_WORKFLOW_REPOSITORY = '1.3.6.1.4.1.57264.1.5';
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

/** An extension's text; `undecodable` when a DER value is present but not a UTF8String. */
function extensionText(certificate: X509Certificate, oid: string, encoding: 'der' | 'raw'): string | null | 'undecodable' {
  const extension = certificate.extension(oid);
  if (!extension) return null;
  if (encoding === 'raw') return extension.value.toString('utf8');
  return derUtf8String(extension.value) ?? 'undecodable';
}

const textOrNull = (value: string | null | 'undecodable') => (value === 'undecodable' ? null : value);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The repository URL as a SAN spells it: no trailing slash, no `.git`. */
export function canonicalRepositoryUrl(repoUrl: string): string {
  return repoUrl.replace(/\/+$/, '').replace(/\.git$/i, '');
}

/**
 * The pattern a SAN must match to name a CI workflow of a repository on the forge at `forgeUrl`,
 * ANCHORED at both ends and with the URL ESCAPED: `@sigstore/verify` tests its policy unanchored,
 * so there `https://github.com/acme/app` would also accept `https://github.com/acme/app-evil/...`
 * and `https://github.com/evil/x?https://github.com/acme/app/...`. Groups: the repository path,
 * the workflow within it, the ref. Case-insensitive because the forges route owner and repository
 * names so; the workflow is compared exactly elsewhere.
 *
 * - GitHub Actions (and Gitea/Forgejo Actions, which copy its claims):
 *   `https://github.com/<owner>/<repo>/.github/workflows/<file>@<ref>`
 * - GitLab CI: `https://gitlab.com/<group>/<project>//<ci config path>@<ref>`
 */
export function subjectAlternativeNamePattern(forge: ProvenanceForge, forgeUrl: string): RegExp {
  const root = escapeRegExp(forgeUrl.replace(/\/+$/, ''));
  const shape = forge === 'gitlab' ? '([^@/]+(?:/[^@/]+)*)//([^@]+)' : '([^@/]+/[^@/]+)/(\\.(?:github|gitea|forgejo)/workflows/[^@/]+)';
  return new RegExp(`^${root}/${shape}@([^@]+)$`, 'i');
}

export type IdentityFailure = { check: 'certificate-identity' | 'certificate-workflow'; message: string };

export interface IdentityExpectation {
  forge: ProvenanceForge;
  /** The forge instance's web root (`https://github.com`). */
  forgeUrl: string;
  /** The plugin's repository: `<forgeUrl>/<path>`. */
  repoUrl: string;
  /** The trusted publisher's workflow (its CI identity's form) when the release came through one, else null. */
  workflow: string | null;
  /**
   * The OIDC issuers that may vouch for this forge's CI (see expectedIssuers). `'unpinned'`: any
   * issuer, for a client that cannot know the forge's and says so (the ingest always pins).
   */
  issuers: readonly string[] | 'unpinned';
}

const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/**
 * The OIDC issuers whose word Fulcio certified a forge's CI on: GitHub Actions' (and the
 * `/<enterprise-slug>` form GitHub Enterprise Cloud customers may choose) for a GitHub-shaped
 * forge, the instance itself for GitLab, and for any forge the issuer the registry's trusted
 * publishing is configured with (`oidcIssuer`), which is how a self-hosted instance (GitHub
 * Enterprise Server, Gitea, Forgejo) names its Actions issuer.
 */
export function expectedIssuers(forge: { type: ProvenanceForge; webUrl: string; oidcIssuer?: string }): string[] {
  const issuers = new Set<string>();
  if (forge.oidcIssuer) issuers.add(forge.oidcIssuer.replace(/\/+$/, ''));
  if (forge.type === 'github') issuers.add(GITHUB_ACTIONS_ISSUER);
  if (forge.type === 'gitlab') issuers.add(forge.webUrl.replace(/\/+$/, ''));
  return [...issuers];
}

function issuerAccepted(issuer: string, accepted: readonly string[]): boolean {
  const bare = issuer.replace(/\/+$/, '');
  if (accepted.includes(bare)) return true;
  return (
    accepted.includes(GITHUB_ACTIONS_ISSUER) &&
    /^https:\/\/token\.actions\.githubusercontent\.com\/[A-Za-z0-9][A-Za-z0-9-]{0,99}$/.test(bare)
  );
}

/** The repository that was built, from 1.12 or, in certificates before it, GitHub's raw 1.5 (`owner/repo`). */
function sourceRepositoryOf(certificate: X509Certificate, expected: IdentityExpectation): string | IdentityFailure {
  const uri = extensionText(certificate, OID_SOURCE_REPOSITORY_URI, 'der');
  if (uri === 'undecodable')
    return {
      check: 'certificate-identity',
      message: "the certificate's source repository extension (1.3.6.1.4.1.57264.1.12) is not a DER UTF8String",
    };
  if (uri !== null) return canonicalRepositoryUrl(uri);
  const legacy = expected.forge === 'github' ? textOrNull(extensionText(certificate, OID_GITHUB_WORKFLOW_REPOSITORY, 'raw')) : null;
  if (legacy !== null) return `${expected.forgeUrl.replace(/\/+$/, '')}/${legacy}`;
  return {
    check: 'certificate-identity',
    message: 'the certificate does not name the repository it was built from (no source repository extension)',
  };
}

/**
 * Reads the signer from a verified Fulcio certificate and checks it: issued on the word of this
 * forge's CI issuer, built from `repoUrl` (the source-repository extension; a repository's own
 * workflow can be called from elsewhere, so the SAN alone does not say whose build it was), by a
 * workflow of that repository or a reusable one of another (the SAN), and for a trusted publisher
 * by its workflow.
 */
export function signerIdentity(certificate: X509Certificate, expected: IdentityExpectation): SignerIdentity | IdentityFailure {
  const san = certificate.subjectAltName;
  const repository = canonicalRepositoryUrl(expected.repoUrl);
  const root = expected.forgeUrl.replace(/\/+$/, '');
  if (!san) return { check: 'certificate-identity', message: 'the signing certificate has no subject alternative name' };
  const issuerText = extensionText(certificate, OID_ISSUER_V2, 'der');
  const issuer = (issuerText === 'undecodable' ? null : issuerText) ?? textOrNull(extensionText(certificate, OID_ISSUER_V1, 'raw'));
  if (issuer === null) return { check: 'certificate-identity', message: 'the certificate names no OIDC issuer' };
  if (expected.issuers !== 'unpinned' && !issuerAccepted(issuer, expected.issuers)) {
    return {
      check: 'certificate-identity',
      message: `the certificate was issued on the word of ${issuer}, not of this forge's CI (${expected.issuers.join(', ') || 'no issuer is configured for it'})`,
    };
  }
  const match = subjectAlternativeNamePattern(expected.forge, root).exec(san);
  if (!match) return { check: 'certificate-identity', message: `the certificate identity ${san} is not a CI workflow on ${root}` };
  const source = sourceRepositoryOf(certificate, expected);
  if (typeof source !== 'string') return source;
  if (source.toLowerCase() !== repository.toLowerCase())
    return { check: 'certificate-identity', message: `the certificate's source repository ${source} is not ${repository}` };
  const [, sanRepository, sanWorkflow, sanRef] = match;
  const own = `${root}/${sanRepository}`.toLowerCase() === repository.toLowerCase();
  // Named as the OIDC claims name it (ci-identity): a reusable workflow with its repository.
  const workflow = own
    ? sanWorkflow
    : expected.forge === 'gitlab'
      ? `${root.replace(/^https?:\/\//, '')}/${sanRepository}//${sanWorkflow}`
      : `${sanRepository}/${sanWorkflow}`;
  if (expected.workflow !== null && expected.workflow !== workflow) {
    return {
      check: 'certificate-workflow',
      message: `the bundle was signed by workflow ${workflow}, not by the trusted publisher's ${expected.workflow}`,
    };
  }
  const ref = textOrNull(extensionText(certificate, OID_SOURCE_REPOSITORY_REF, 'der')) ?? sanRef;
  return { repository: own ? san.slice(0, repository.length) : source, workflow, ref, issuer, subjectAlternativeName: san };
}
