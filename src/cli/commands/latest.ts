import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';
import { FreshnessState } from '../freshness-state';
import {
  FRESHNESS_ERRORS,
  type FreshnessErrorCode,
  freshnessPlatformKey,
  type FreshnessStatement,
  verifyFreshness,
} from '../../lib/freshness';
import { type KeySet, type KeySetSource, verifyRelease } from '../../lib/integrity';
import { normalizeArch, normalizeOs } from '../../lib/platform/platform';
import { asReleaseRecord, fetchJson, OperationalError, parseValueFlags, reportFailure, UsageError } from './verify';

export const summary = "resolve a plugin's latest release, refusing a stale or rolled-back answer";

const USAGE = `usage: registry latest <slug> [--os OS --arch ARCH] [--registry URL] [--state FILE]

  --os OS, --arch ARCH  the platform to resolve for (default: this machine's)
  --registry URL        registry base URL (default: $REGISTRY_URL or http://localhost:3000)
  --state FILE          where answers seen before are remembered
                        (default: $XDG_STATE_HOME/registry/freshness.json, else ~/.local/state/registry/freshness.json)

Checks the answer's signed freshness statement (signature, expiry, slug, platform, and no rollback
against what this state saw before: tree size, issue time, version) and the release signature,
then prints the version, the asset's URL and its SHA-256.

exit status: 0 fresh and verified, 1 refused (stale, rolled back or not verifying), 2 usage error or registry unreachable
`;

interface LatestOptions {
  slug: string;
  registry: string;
  os: string;
  arch: string;
  statePath: string;
}

const VALUE_FLAGS = { '--registry': 'registry', '--state': 'statePath', '--os': 'os', '--arch': 'arch' } as const;

function parseArgs(args: string[], io: CliIo): LatestOptions {
  const { values, positional } = parseValueFlags(args, VALUE_FLAGS);
  if (positional.length !== 1) throw new UsageError('expected exactly one <slug>');
  const registry = (values.registry ?? io.env.REGISTRY_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(registry) || !URL.canParse(registry)) throw new UsageError(`registry '${registry}' is not an http(s) URL`);
  const os = normalizeOs(values.os ?? process.platform);
  const arch = normalizeArch(values.arch ?? process.arch);
  if (!os) throw new UsageError(`--os ${values.os ?? process.platform}: not linux, darwin or win32`);
  if (!arch) throw new UsageError(`--arch ${values.arch ?? process.arch}: not x64, arm64, ia32 or armhf`);
  return { slug: positional[0] as string, registry, os, arch, statePath: values.statePath ?? FreshnessState.defaultPath(io.env) };
}

/** The body of `GET /api/plugins/:slug/latest`, as far as this command reads it. */
interface LatestAnswer {
  slug: string;
  version: string;
  download_url: string;
  platform: string | null;
  platforms: Record<string, { name: string; download_url: string; sha256: string | null }>;
  freshness: string | null;
}

function asLatestAnswer(value: unknown, url: string): LatestAnswer {
  const answer = value as Partial<LatestAnswer> | null;
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof answer.version !== 'string' ||
    typeof answer.platforms !== 'object' ||
    answer.platforms === null ||
    typeof answer.download_url !== 'string'
  ) {
    throw new OperationalError(`${url} did not return a latest answer`);
  }
  return answer as LatestAnswer;
}

function refuse(io: CliIo, slug: string, code: FreshnessErrorCode, message: string): number {
  io.stderr(`latest REFUSED for ${slug}: ${code}: ${FRESHNESS_ERRORS[code]}\n  ${message}\n`);
  return EXIT_FAILURE;
}

/** The answer and its statement must name the same release, platform and asset. */
function mismatch(
  answer: LatestAnswer,
  statement: FreshnessStatement,
  wanted: { os: string; arch: string },
): { code: FreshnessErrorCode; message: string } | null {
  const key = answer.platform ?? 'universal';
  const fits = [`${wanted.os}-${wanted.arch}`, `${wanted.os}-universal`, 'universal'];
  if (!fits.includes(key)) return { code: 'PLATFORM_MISMATCH', message: `asked for ${wanted.os}-${wanted.arch}, the answer is for ${key}` };
  const asset = Object.hasOwn(answer.platforms, key) ? answer.platforms[key] : undefined;
  if (statement.version !== answer.version)
    return { code: 'ANSWER_MISMATCH', message: `the statement names ${statement.version}, the answer ${answer.version}` };
  if (!asset || asset.sha256 !== statement.asset_sha256)
    return { code: 'ANSWER_MISMATCH', message: `the statement's asset_sha256 is not the answer's asset's` };
  return null;
}

async function latest(io: CliIo, options: LatestOptions): Promise<number> {
  const { slug, registry } = options;
  const state = await FreshnessState.open(options.statePath, io.cwd).catch((error: Error) => {
    throw new OperationalError(error.message);
  });
  const url = `${registry}/api/plugins/${encodeURIComponent(slug)}/latest?os=${encodeURIComponent(options.os)}&arch=${encodeURIComponent(options.arch)}`;
  const answer = asLatestAnswer(await fetchJson(io, url), url);
  const keysUrl = `${registry}/.well-known/registry-key.json`;
  const fetchKeySet = async () => (await fetchJson(io, keysUrl)) as KeySet;
  const keys: KeySetSource = { fetchKeySet, cached: await fetchKeySet() };

  const platform = answer.platform ?? 'universal';
  const seen = state.get(registry, slug, platform);
  const fresh = await verifyFreshness(answer.freshness ?? '', keys, { slug, platform }, new Date(), seen);
  if (!fresh.ok) return refuse(io, slug, fresh.code, fresh.message);
  const { statement } = fresh;
  const wrong = mismatch(answer, statement, options);
  if (wrong) return refuse(io, slug, wrong.code, wrong.message);

  // The release signature, as `registry verify` checks it: the asset's hash is the signed one.
  const releaseUrl = `${registry}/api/plugins/${encodeURIComponent(slug)}/releases/${encodeURIComponent(statement.version)}`;
  const release = asReleaseRecord(await fetchJson(io, releaseUrl), releaseUrl);
  const signature = await verifyRelease({ release, keys, expected: { slug, version: statement.version } });
  if (!signature.ok) return reportFailure(io, `${slug}@${statement.version}`, signature);
  const asset = answer.platforms[platform];
  const signed = signature.payload.assets.find((entry) => entry.name === asset.name);
  if (statement.asset_sha256 !== null && signed?.sha256 !== statement.asset_sha256) {
    return refuse(io, slug, 'ANSWER_MISMATCH', `asset ${asset.name}: the release signature does not sign the statement's sha256`);
  }

  await state.remember(registry, slug, freshnessPlatformKey(statement.platform), statement).catch((error: Error) => {
    throw new OperationalError(`cannot write freshness state ${state.path}: ${error.message}`);
  });
  io.stdout(
    [
      `${slug} ${statement.version}`,
      `  asset   ${asset.name} (${platform})`,
      `  url     ${new URL(answer.download_url, `${registry}/`).toString()}`,
      `  sha256  ${statement.asset_sha256 ?? '(none: the asset was over the hash budget, unsigned)'}`,
      `  fresh until ${statement.expires_at} (issued ${statement.issued_at}, log size ${statement.tree_size}, kid ${fresh.kid}; release signed by kid ${signature.kid})`,
    ].join('\n') + '\n',
  );
  return EXIT_OK;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  try {
    return await latest(io, parseArgs(args, io));
  } catch (error) {
    if (!(error instanceof OperationalError)) throw error;
    io.stderr(`registry latest: ${error.message}\n`);
    if (error instanceof UsageError) io.stderr(USAGE);
    return EXIT_USAGE;
  }
}
