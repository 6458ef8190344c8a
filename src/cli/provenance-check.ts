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

/** What the step concluded; `refused` names the failed check (the registry's ingest names the same ones). */
export type ProvenanceResult =
  | { kind: 'verified'; lines: string[] }
  | { kind: 'absent' }
  | { kind: 'unverified' }
  | { kind: 'refused'; check: ProvenanceCheck | 'required'; message: string };

export interface ProvenanceInput {
  /** The signed assets whose bytes were checked: each SHA-256 must be a subject. */
  assets: readonly IntegrityAsset[];
  /** The release record's unsigned members this step reads: `publishedBy` and `provenance`. */
  release: object & { publishedBy?: unknown; provenance?: unknown };
  /** The plugin's repository as the registry records it; asked only when there is a bundle to check. */
  repoUrl: () => Promise<string>;
  roots: readonly TrustedRootMaterial[];
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

const recordMember = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/**
 * What the bundle must show, as the registry's ingest expects it: the plugin's repository on its
 * forge, that forge's CI issuer, and the trusted publisher's workflow when the release names one.
 * On a host the CLI does not know, the issuer is the one the registry recorded at ingest (the only
 * word on it a client has) and the SAN's shape tells GitLab CI from the GitHub-Actions family.
 */
function expectationFor(repoUrl: string, bundle: unknown, release: ProvenanceInput['release']): ProvenanceExpectation {
  const url = new URL(repoUrl);
  // As the registry matches a repository to its forge: scheme and `www.` aside.
  const knownUrl = `https://${url.host.replace(/^www\./i, '').toLowerCase()}`;
  const known = KNOWN_FORGES[knownUrl];
  const publishedBy = release.publishedBy;
  const workflow = recordMember(publishedBy, 'kind') === 'trusted' ? recordMember(publishedBy, 'workflow') : null;
  const expected = { workflow: typeof workflow === 'string' ? workflow : null };
  if (known) return { ...expected, forge: known, forgeUrl: knownUrl, repoUrl: `${knownUrl}${url.pathname}`, issuers: expectedIssuers({ type: known, webUrl: knownUrl }) };
  const forgeUrl = url.origin;
  const san = unverifiedSignerName(bundle) ?? '';
  const forge: ProvenanceForge = !subjectAlternativeNamePattern('github', forgeUrl).test(san) && subjectAlternativeNamePattern('gitlab', forgeUrl).test(san) ? 'gitlab' : 'github';
  const recorded = recordMember(release.provenance, 'issuer');
  return { ...expected, forge, forgeUrl, repoUrl, issuers: typeof recorded === 'string' ? [recorded.replace(/\/+$/, '')] : [] };
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
  const outcome = verifyProvenance(attestation, { ...expectationFor(repoUrl, attestation, input.release), assets }, input.roots);
  if (!outcome.ok) return { kind: 'refused', check: outcome.check, message: outcome.message };
  const { signer } = outcome;
  return {
    kind: 'verified',
    lines: [
      `  provenance: built by ${signer.repository} ${signer.workflow} at ${signer.ref}, verified`,
      `    issuer ${signer.issuer}, signed at ${outcome.signedAt.toISOString()}, verified against ${outcome.root}`,
    ],
  };
}

/** Why the provenance step fails the command, or null. */
export function provenanceRefusal(result: ProvenanceResult, required: boolean): string | null {
  if (result.kind === 'refused') return `${result.check}: ${result.message}`;
  if (!required || result.kind === 'verified') return null;
  return result.kind === 'absent'
    ? 'required: the release has no provenance attestation'
    : 'required: the release\'s attestation is not a Sigstore bundle, so it cannot be verified (unverified)';
}

export function provenanceLines(result: ProvenanceResult): string[] {
  if (result.kind === 'verified') return result.lines;
  return [result.kind === 'absent' ? '  no provenance attestation' : '  provenance: unverified (the attestation is not a Sigstore bundle; passed through unchecked, as the registry does)'];
}
