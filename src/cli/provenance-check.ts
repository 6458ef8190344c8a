/**
 * `registry verify`'s provenance step: the release's Sigstore bundle checked here, offline, with
 * the verifier the registry runs at ingest (src/lib/provenance), so a client need not take the
 * registry's "Built by" on trust. The bundle comes from the signed payload (every signed asset
 * carries it), never from the record's unsigned copies.
 */
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import type { IntegrityAsset } from '../lib/integrity';
import {
  canonicalRepositoryUrl,
  expectedIssuers,
  isSigstoreBundle,
  type ProvenanceCheck,
  type ProvenanceExpectation,
  type ProvenanceForge,
  publicGoodTrustedRoot,
  subjectAlternativeNamePattern,
  TrustedRootError,
  type TrustedRootMaterial,
  trustedRootMaterial,
  unverifiedSignerName,
  verifyProvenance,
} from '../lib/provenance';
import type { CliIo } from './command';
import { OperationalError } from './value-flags';

/**
 * What the step concluded; `refused` names the failed check (the registry's ingest names the same
 * ones). `unpinnedIssuer`: the certificate's issuer, which nothing the client knows vouched for.
 */
export type ProvenanceResult =
  | { kind: 'verified'; lines: string[]; unpinnedIssuer: string | null }
  | { kind: 'absent' }
  | { kind: 'unverified' }
  | { kind: 'refused'; check: ProvenanceCheck | 'required'; message: string };

/** What the user pinned on the command line, whatever the registry says. */
export interface ProvenancePins {
  /** `--issuer`: the issuers the certificate may name; empty: the known forge's, else not pinned. */
  issuers: readonly string[];
  /** `--workflow`: the workflows that may have signed; empty: only the trusted publisher's, if any. */
  workflows: readonly string[];
}

export interface ProvenanceInput {
  /** The signed assets whose bytes were checked: each SHA-256 must be a subject. */
  assets: readonly IntegrityAsset[];
  /** The release record's unsigned member this step reads: `publishedBy`. */
  release: object & { publishedBy?: unknown };
  /** The plugin's repository as the registry records it; asked only when there is a bundle to check. */
  repoUrl: () => Promise<string>;
  roots: readonly TrustedRootMaterial[];
  pins: ProvenancePins;
}

/**
 * The public-good root the CLI ships, then each `--trusted-root` file, in order. A file that
 * cannot be read or is not a trusted root stops the command before anything is fetched.
 */
export async function trustedRoots(io: CliIo, files: readonly string[]): Promise<TrustedRootMaterial[]> {
  const roots = [publicGoodTrustedRoot()];
  for (const [index, file] of files.entries()) {
    const path = isAbsolute(file) ? file : resolve(io.cwd, file);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new OperationalError(`cannot read trusted root ${file}: ${(error as Error).message}`);
    }
    try {
      roots.push(trustedRootMaterial(`trusted root #${index + 1} (${basename(path)})`, json, path));
    } catch (error) {
      if (!(error instanceof TrustedRootError)) throw error;
      throw new OperationalError(error.message);
    }
  }
  return roots;
}

/**
 * Forges whose CI issuer is fixed and public, so the client knows it without asking the registry.
 * GitHub Enterprise Server, Gitea, Forgejo and self-hosted GitLab name their own issuer.
 */
const KNOWN_FORGES: Readonly<Record<string, ProvenanceForge>> = { 'https://github.com': 'github', 'https://gitlab.com': 'gitlab' };

const recordMember = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The forge roots a repository URL may stand for, https first: the registry matches a repository
 * to its forge blind to scheme, case and `www.` (forgeForUrl), so each names the same repository
 * to it. The URL parser drops a default port (`https://host:443`).
 */
function forgeRoots(url: URL): string[] {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const hosts = [host, host.replace(/^www\./, '')];
  const port = url.port ? `:${url.port}` : '';
  return [...new Set(['https:', 'http:'].flatMap((scheme) => hosts.map((name) => new URL(`${scheme}//${name}${port}`).origin)))];
}

/**
 * What the bundle must show, as the registry's ingest expects it: the plugin's repository on its
 * forge, that forge's CI issuer (or the pinned ones), and the trusted publisher's workflow when
 * the release names one. On a host the CLI does not know, the forge root is the one of the
 * repository's equivalent spellings the certificate uses, the SAN's shape tells GitLab CI from the
 * GitHub-Actions family, and without `--issuer` the issuer is not pinned: the registry's record of
 * it was read from the certificate itself, so checking against it would check nothing.
 */
function expectationFor(
  repoUrl: string,
  bundle: unknown,
  release: ProvenanceInput['release'],
  pins: ProvenancePins,
): ProvenanceExpectation {
  const url = new URL(repoUrl);
  const roots = forgeRoots(url);
  const publishedBy = release.publishedBy;
  const workflow = recordMember(publishedBy, 'kind') === 'trusted' ? recordMember(publishedBy, 'workflow') : null;
  const expected = { workflow: typeof workflow === 'string' ? workflow : null };
  const knownUrl = roots.find((root) => Object.hasOwn(KNOWN_FORGES, root));
  const pinned = pins.issuers.length > 0 ? pins.issuers : null;
  if (knownUrl) {
    const forge = KNOWN_FORGES[knownUrl] as ProvenanceForge;
    const issuers = pinned ?? expectedIssuers({ type: forge, webUrl: knownUrl });
    return { ...expected, forge, forgeUrl: knownUrl, repoUrl: canonicalRepositoryUrl(`${knownUrl}${url.pathname}`), issuers };
  }
  const san = unverifiedSignerName(bundle) ?? '';
  const forgeUrl = roots.find((root) => san.toLowerCase().startsWith(`${root}/`)) ?? (roots[0] as string);
  const forge: ProvenanceForge =
    !subjectAlternativeNamePattern('github', forgeUrl).test(san) && subjectAlternativeNamePattern('gitlab', forgeUrl).test(san)
      ? 'gitlab'
      : 'github';
  return { ...expected, forge, forgeUrl, repoUrl: canonicalRepositoryUrl(`${forgeUrl}${url.pathname}`), issuers: pinned ?? 'unpinned' };
}

/** The bundle every checked asset carries; the registry keeps one attestation per release. */
function attestationOf(assets: readonly IntegrityAsset[]): { attestation: unknown } | { refused: string } {
  const distinct = new Set(assets.map((asset) => JSON.stringify(asset.attestation ?? null)));
  if (distinct.size > 1) return { refused: 'the signed assets carry different attestations' };
  return { attestation: assets[0]?.attestation ?? null };
}

export async function checkProvenance(input: ProvenanceInput): Promise<ProvenanceResult> {
  const carried = attestationOf(input.assets);
  if ('refused' in carried) return { kind: 'refused', check: 'bundle', message: carried.refused };
  const { attestation } = carried;
  if (attestation === null) return { kind: 'absent' };
  if (!isSigstoreBundle(attestation)) return { kind: 'unverified' };
  const repoUrl = await input.repoUrl();
  const assets = input.assets.map((asset) => ({ name: asset.name, sha256: asset.sha256 }));
  const expectation = expectationFor(repoUrl, attestation, input.release, input.pins);
  const outcome = verifyProvenance(attestation, { ...expectation, assets }, input.roots);
  if (!outcome.ok) return { kind: 'refused', check: outcome.check, message: outcome.message };
  const { signer } = outcome;
  const { workflows } = input.pins;
  if (workflows.length > 0 && !workflows.includes(signer.workflow)) {
    return {
      kind: 'refused',
      check: 'certificate-workflow',
      message: `the bundle was signed by workflow ${signer.workflow}, not by one --workflow names (${workflows.join(', ')})`,
    };
  }
  const unpinned = expectation.issuers === 'unpinned';
  const built = `  provenance: built by ${signer.repository} ${signer.workflow} at ${signer.ref}`;
  return {
    kind: 'verified',
    unpinnedIssuer: unpinned ? signer.issuer : null,
    lines: [
      unpinned ? `${built}; signer identity verified, issuer not pinned (pass --issuer to pin it)` : `${built}, verified`,
      `    issuer ${signer.issuer}${unpinned ? ' (not pinned)' : ''}, signed at ${outcome.signedAt.toISOString()}, verified against ${outcome.root}`,
    ],
  };
}

/** Why the provenance step fails the command, or null. */
export function provenanceRefusal(result: ProvenanceResult, required: boolean): string | null {
  if (result.kind === 'refused') return `${result.check}: ${result.message}`;
  if (!required) return null;
  if (result.kind === 'verified') {
    return result.unpinnedIssuer === null
      ? null
      : `required: the certificate's issuer ${result.unpinnedIssuer} is not pinned (the repository is not on github.com or gitlab.com); pass --issuer URL to pin it`;
  }
  return result.kind === 'absent'
    ? 'required: the release has no provenance attestation'
    : "required: the release's attestation is not a Sigstore bundle, so it cannot be verified (unverified)";
}

export function provenanceLines(result: ProvenanceResult): string[] {
  if (result.kind === 'verified') return result.lines;
  return [
    result.kind === 'absent'
      ? '  no provenance attestation'
      : '  provenance: unverified (the attestation is not a Sigstore bundle; passed through unchecked, as the registry does)',
  ];
}
