import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_FORKED, EXIT_OK, EXIT_PROVENANCE, EXIT_USAGE } from '../command';
import {
  checkAsset,
  verifyRelease,
  VERIFICATION_ERRORS,
  type AssetCheckResult,
  type AssetToVerify,
  type IntegrityAsset,
  type KeySet,
  type KeySetSource,
  type ReleaseAssetLink,
  type ReleaseRecord,
  type SignedPayload,
  type VerificationFailure,
} from '../../lib/integrity';
import { LogForkError, LogUnreachableError, LogVerificationError } from '../log-client';
import { StateFileError, statePath } from '../log-state';
import { checkReleaseInLog } from '../release-log-check';
import { parseVerifyArgs, VERIFY_USAGE, type VerifyOptions } from '../verify-options';
import { OperationalError, parseValueFlags, UsageError } from '../value-flags';

export { OperationalError, parseValueFlags, UsageError };

export const summary = 'verify a release signature and its assets against the registry key set';

async function fetchOrFail(io: CliIo, url: string): Promise<Response> {
  let response: Response;
  try {
    response = await io.fetch(url);
  } catch (error) {
    throw new OperationalError(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new OperationalError(`${url} answered HTTP ${response.status}`);
  return response;
}

/**
 * Where a registry download link points, asked with HEAD: the registry counts a GET on its
 * download route as a download, and checking a release is not one. A link that does not redirect
 * is used as it is.
 */
async function resolveWithoutCounting(io: CliIo, url: string): Promise<string> {
  let response: Response;
  try {
    response = await io.fetch(url, { method: 'HEAD', redirect: 'manual' });
  } catch (error) {
    throw new OperationalError(`cannot reach ${url}: ${(error as Error).message}`);
  }
  const location = response.headers.get('location');
  return response.status >= 300 && response.status < 400 && location ? new URL(location, url).toString() : url;
}

export async function fetchJson(io: CliIo, url: string): Promise<unknown> {
  const response = await fetchOrFail(io, url);
  try {
    return await response.json();
  } catch {
    throw new OperationalError(`${url} did not return JSON`);
  }
}

export function asReleaseRecord(value: unknown, url: string): ReleaseRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new OperationalError(`${url} did not return a release record`);
  const record = value as Partial<ReleaseRecord>;
  const assets = Array.isArray(record.assets) ? record.assets : [];
  return { ...record, assets } as ReleaseRecord;
}

/** The key set source, and the set it last gave (the log's tree head is checked with the same keys). */
async function keySource(io: CliIo, options: VerifyOptions): Promise<{ source: KeySetSource; latest: () => KeySet | undefined }> {
  if (options.keysPath === undefined) {
    const url = `${options.registry}/.well-known/registry-key.json`;
    let latest: KeySet | undefined;
    const fetchKeySet = async (): Promise<KeySet> => (latest = (await fetchJson(io, url)) as KeySet);
    return { source: { fetchKeySet }, latest: () => latest };
  }
  const path = isAbsolute(options.keysPath) ? options.keysPath : resolve(io.cwd, options.keysPath);
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as KeySet;
    return { source: saved, latest: () => saved };
  } catch (error) {
    throw new OperationalError(`cannot read key set ${options.keysPath}: ${(error as Error).message}`);
  }
}

/** The assets to check: the named one, or every asset the release offers for download. */
function selectAssets(release: ReleaseRecord, options: VerifyOptions): string[] {
  const offered = release.assets.map((link) => link.name);
  if (options.assetName !== undefined) return [options.assetName];
  if (options.filePath !== undefined) {
    if (offered.length !== 1) throw new UsageError(`--file needs --asset NAME: the release has ${offered.length} assets`);
    return offered;
  }
  return offered;
}

/** Where the asset's bytes come from: the local file, else a streamed download of its release URL. */
async function assetSource(io: CliIo, options: VerifyOptions, name: string, links: ReleaseAssetLink[]): Promise<AssetToVerify> {
  if (options.filePath !== undefined) {
    return { name, path: isAbsolute(options.filePath) ? options.filePath : resolve(io.cwd, options.filePath) };
  }
  const link = links.find((candidate) => candidate.name === name);
  if (!link || typeof link.url !== 'string') {
    throw new UsageError(`the release offers no download for asset '${name}'; give its bytes with --file PATH`);
  }
  const url = await resolveWithoutCounting(io, new URL(link.url, `${options.registry}/`).toString());
  const response = await fetchOrFail(io, url);
  if (!response.body) return { name, bytes: new Uint8Array() };
  // Node's web ReadableStream is async-iterable; hashing it chunk by chunk keeps memory flat.
  return { name, stream: response.body as unknown as AsyncIterable<Uint8Array> };
}

async function checkOneAsset(
  io: CliIo,
  options: VerifyOptions,
  payload: SignedPayload,
  name: string,
  links: ReleaseAssetLink[],
): Promise<AssetCheckResult> {
  // Decide whether the name is signed before fetching anything: an unsigned asset is not worth downloading.
  const signed = await checkAsset(payload, { name });
  if (!signed.ok) return signed;
  const source = await assetSource(io, options, name, links);
  try {
    return await checkAsset(payload, source);
  } catch (error) {
    throw new OperationalError(`cannot read asset '${name}': ${(error as Error).message}`);
  }
}

export function reportFailure(io: CliIo, what: string, result: VerificationFailure): number {
  const { meaning } = VERIFICATION_ERRORS[result.code];
  io.stderr(`verification FAILED for ${what}: ${result.code}: ${meaning}\n  ${result.message}\n`);
  return EXIT_FAILURE;
}

function describeAsset(asset: IntegrityAsset): string {
  return `  asset ${asset.name}  sha256 ${asset.sha256}  ${asset.size} bytes`;
}

async function verify(io: CliIo, options: VerifyOptions): Promise<number> {
  const target = `${options.slug}@${options.version}`;
  const releaseUrl = `${options.registry}/api/plugins/${encodeURIComponent(options.slug)}/releases/${encodeURIComponent(options.version)}`;
  // Loaded here, not at the top: `registry latest` shares this module and needs no Sigstore.
  const { checkProvenance, provenanceLines, provenanceRefusal, trustedRoots } = await import('../provenance-check');
  const roots = await trustedRoots(io, options.trustedRoots);
  const release = asReleaseRecord(await fetchJson(io, releaseUrl), releaseUrl);
  const keys = await keySource(io, options);

  const signature = await verifyRelease({ release, keys: keys.source, expected: { slug: options.slug, version: options.version } });
  if (!signature.ok) return reportFailure(io, target, signature);

  const names = selectAssets(release, options);
  const verified: IntegrityAsset[] = [];
  for (const name of names) {
    const result = await checkOneAsset(io, options, signature.payload, name, release.assets);
    if (!result.ok) return reportFailure(io, `${target} asset ${name}`, result);
    verified.push(result.asset);
  }

  const log = await checkLog(io, options, release, keys.latest(), signature.kid);
  if (typeof log === 'number') return log;
  if (log.warning) io.stderr(`warning: ${log.warning}\n`);

  const pins = { issuers: options.issuers, workflows: options.workflows };
  const provenance = await checkProvenance({ assets: verified, release, repoUrl: () => pluginRepository(io, options), roots, pins });
  const refused = provenanceRefusal(provenance, options.requireProvenance);
  if (refused) {
    io.stderr(`provenance REFUSED for ${target}: ${refused}\n`);
    return EXIT_PROVENANCE;
  }
  const lines = [
    `verified ${target}`,
    `  signed by kid ${signature.kid}`,
    ...verified.map(describeAsset),
    ...log.lines,
    ...provenanceLines(provenance),
  ];
  if (names.length === 0) lines.push('  (release has no assets; signature only)');
  if (release.yanked === true) lines.push('  note: this release is yanked');
  io.stdout(lines.join('\n') + '\n');
  return EXIT_OK;
}

/** The plugin's repository as the registry records it: what the bundle's signer must be the CI of. */
async function pluginRepository(io: CliIo, options: VerifyOptions): Promise<string> {
  const url = `${options.registry}/api/plugins/${encodeURIComponent(options.slug)}`;
  const repoUrl = ((await fetchJson(io, url)) as { repoUrl?: unknown } | null)?.repoUrl;
  if (typeof repoUrl !== 'string' || !/^https?:\/\//.test(repoUrl) || !URL.canParse(repoUrl))
    throw new OperationalError(`${url} names no repository URL`);
  return repoUrl;
}

async function checkLog(
  io: CliIo,
  options: VerifyOptions,
  release: ReleaseRecord,
  keySet: KeySet | undefined,
  kid: string,
): Promise<{ lines: string[]; warning?: string } | number> {
  const target = `${options.slug}@${options.version}`;
  try {
    const input = {
      registry: options.registry,
      statePath: statePath(io, options.statePath),
      release,
      keySet: keySet ?? { keys: [] },
      kid,
      requireEntry: options.requireLog,
    };
    return await checkReleaseInLog(io, input);
  } catch (error) {
    if (error instanceof LogForkError) {
      io.stderr(`FORKED VIEW of ${options.registry}'s transparency log while verifying ${target}:\n  ${error.message}\n`);
      return EXIT_FORKED;
    }
    if (error instanceof LogUnreachableError || error instanceof StateFileError) throw new OperationalError(error.message);
    if (!(error instanceof LogVerificationError)) throw error;
    io.stderr(`verification FAILED for ${target}: transparency log: ${error.message}\n`);
    return EXIT_FAILURE;
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(VERIFY_USAGE);
    return EXIT_OK;
  }
  try {
    return await verify(io, parseVerifyArgs(args, io));
  } catch (error) {
    if (!(error instanceof OperationalError)) throw error;
    io.stderr(`registry verify: ${error.message}\n`);
    if (error instanceof UsageError) io.stderr(VERIFY_USAGE);
    return EXIT_USAGE;
  }
}
