import { readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { type components, createRegistryClient, type RegistryClient } from '../../client/registry-client';
import { formatViolation, MANIFEST_SOURCES, type ValidationResult, type Violation } from '../../lib/manifest';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';
import { checkFile, findManifest, UsageError } from '../manifest-files';
import { DEFAULT_ID_TOKEN_ENV, describeSource, type IdTokenSource, idTokenSource, IdTokenUnavailable, readIdToken } from '../oidc-identity';
import { assetFromArgument, assetFromFile, attestationFromFile, originRepositoryUrl, type PushAsset } from '../publish-request';
import { EXIT_NETWORK, NetworkFailure, secureRegistryUrl, sleep, withRetries } from '../registry-call';
import { DEFAULT_REGISTRY, readRegistryKinds, type RegistryKinds } from '../registry-kinds';

export const summary = 'publish a release to a registry from CI (REGISTRY_TOKEN, or trusted publishing with the CI OIDC ID token)';

const HELP = `usage: registry publish [--registry URL] [--manifest PATH] [--version V]
                        (--asset NAME=URL | --asset-file PATH=URL)... [--repo-url URL]
                        [--attestation FILE] [--oidc-token-env NAME] [--oidc-audience AUD]
                        [--offline] [--dry-run] [--json]

Validates the manifest locally, then against the registry's kinds and extension fields (its
public GET /api/kinds), then pushes the release to POST /api/publish/<name>.

  --registry URL        the registry (default: REGISTRY_URL, else ${DEFAULT_REGISTRY})
  --manifest PATH       the manifest file or folder (default: the current folder)
  --version V           the version to publish, a leading v allowed (default: the manifest's)
  --asset NAME=URL      a release asset the registry downloads, hashes and signs (repeatable)
  --asset-file PATH=URL the same, with the sha256 and size of the local file sent along, so the
                        registry refuses a download that differs from what was built (repeatable)
  --repo-url URL        the repository, needed on the first push (default: git remote origin)
  --attestation FILE    a build-provenance attestation bundle (JSON), passed through
  --oidc-token-env NAME the variable holding the CI OIDC ID token (default REGISTRY_ID_TOKEN,
                        GitLab CI's id_tokens)
  --oidc-audience AUD   the audience to request a GitHub Actions ID token for (default: the
                        registry URL; the registry's OIDC_AUDIENCE when its operator set one)
  --offline             do not read the registry's kinds: a top-level field the manifest format
                        does not define is a warning, and the registry decides at the push
  --dry-run             validate and print the request, push nothing (with --offline, no
                        network at all; without it, an unreachable registry is a warning)
  --json                print the outcome as JSON

The publisher token comes from the environment variable REGISTRY_TOKEN, never from an argument
(arguments end up in shell history and CI logs). Without REGISTRY_TOKEN, trusted publishing is
used: the CI job's OIDC ID token (GitHub Actions with \`permissions: id-token: write\`, or the
variable named by --oidc-token-env) is exchanged for a 15-minute token for the plugins whose
trusted publishers match the job.

Exit status: 0 published, 1 refused by the registry or an invalid manifest, 2 usage error,
3 the registry could not be reached after retries.
`;

interface PublishArgs {
  registry: string;
  manifest: string;
  version?: string;
  assets: string[];
  assetFiles: string[];
  repoUrl?: string;
  attestation?: string;
  oidcTokenEnv: string;
  oidcAudience?: string;
  offline: boolean;
  dryRun: boolean;
  json: boolean;
}

const VALUE_OPTIONS = [
  '--registry',
  '--manifest',
  '--version',
  '--asset',
  '--asset-file',
  '--repo-url',
  '--attestation',
  '--oidc-token-env',
  '--oidc-audience',
];

function parseArgs(args: readonly string[], env: CliIo['env']): PublishArgs | 'help' {
  const parsed: PublishArgs = {
    registry: env.REGISTRY_URL ?? DEFAULT_REGISTRY,
    manifest: '.',
    assets: [],
    assetFiles: [],
    oidcTokenEnv: DEFAULT_ID_TOKEN_ENV,
    offline: false,
    dryRun: false,
    json: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = equals > 0 ? arg.slice(0, equals) : arg;
    if (option === '--help' || option === '-h') return 'help';
    if (option === '--token')
      throw new UsageError('a token is never taken from the command line (it would land in shell history and CI logs); set REGISTRY_TOKEN');
    if (option === '--dry-run') parsed.dryRun = true;
    else if (option === '--offline') parsed.offline = true;
    else if (option === '--json') parsed.json = true;
    else if (VALUE_OPTIONS.includes(option)) {
      const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`${option} needs a value`);
      if (option === '--registry') parsed.registry = value;
      else if (option === '--manifest') parsed.manifest = value;
      else if (option === '--version') parsed.version = value;
      else if (option === '--asset') parsed.assets.push(value);
      else if (option === '--asset-file') parsed.assetFiles.push(value);
      else if (option === '--repo-url') parsed.repoUrl = value;
      else if (option === '--oidc-token-env') parsed.oidcTokenEnv = value;
      else if (option === '--oidc-audience') parsed.oidcAudience = value;
      else parsed.attestation = value;
    } else throw new UsageError(`unexpected argument '${arg}'`);
  }
  parsed.registry = secureRegistryUrl(parsed.registry, 'REGISTRY_TOKEN');
  if (parsed.assets.length + parsed.assetFiles.length === 0)
    throw new UsageError('a release needs at least one asset: give --asset NAME=URL or --asset-file PATH=URL');
  return parsed;
}

type ManifestSource = components['schemas']['PublishDto']['manifestSource'];

/** The manifest's file name as the push names its format; any other name by its extension. */
function manifestSource(fileName: string): ManifestSource {
  if (MANIFEST_SOURCES.includes(fileName)) return fileName as ManifestSource;
  return fileName.toLowerCase().endsWith('.json') ? 'plugin.json' : 'plugin.yaml';
}

function violationsText(file: string, result: Extract<ValidationResult, { ok: false }>): string {
  return (
    [`${file}: ${result.violations.length} violation(s)`, ...result.violations.map((v) => `  ${formatViolation(v)}`)].join('\n') + '\n'
  );
}

function warningsText(warnings: readonly Violation[]): string {
  return warnings.map((item) => `registry publish: warning: ${formatViolation(item)}\n`).join('');
}

interface Problem {
  status?: number;
  type?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
  /** On a 409 version-exists: the release the registry has. */
  release?: { version: string; manifestSha256: string };
}

/**
 * The release a retried push made after all: an earlier attempt's answer was lost (a 5xx, the
 * connection dropped) after the registry recorded it, so the retry finds the version there. It is
 * this push's own when its manifest is this manifest, byte for byte in canonical form.
 */
function ownEarlierRelease(status: number, problem: Problem, attempts: number, manifestSha256: string): { version: string } | null {
  if (attempts < 2 || status !== 409 || !problem.type?.endsWith('/version-exists')) return null;
  return problem.release?.manifestSha256 === manifestSha256 ? { version: problem.release.version } : null;
}

/** What a refusal means and what to do about it, per the push's status table. */
function refusalText(status: number, problem: Problem): string {
  const detail = problem.detail ?? 'no detail';
  const advice: Record<number, string> = {
    400: 'the request is malformed; the first push of a plugin also needs --repo-url (or a git remote origin)',
    401: 'the token is missing, expired or revoked: create a new publisher token and set REGISTRY_TOKEN',
    403: "the token's scopes do not permit this push, or the plugin belongs to someone else (a new plugin needs a publish:* token)",
    409: 'this version is already published (bump the version), or the repository is already claimed by another plugin',
    413: 'the request is too large',
    422: 'the release breaks a rule; each violation is listed below',
    502: 'the registry could not download or hash an asset: check that its URL is reachable and right',
  };
  const lines = [`registry publish: refused (HTTP ${status}): ${detail}`, `  ${advice[status] ?? 'see the detail above'}`];
  for (const error of problem.errors ?? []) lines.push(`  ${error.path}: ${error.message.replace(/^[^:]*: /, '')}`);
  return lines.join('\n') + '\n';
}

/** A short-lived publisher token for this CI job, exchanged for its OIDC ID token; null (reported) when refused. */
async function trustedToken(io: CliIo, client: RegistryClient, source: IdTokenSource, parsed: PublishArgs): Promise<string | null> {
  let idToken: string;
  try {
    idToken = await readIdToken(source, io.env, parsed.oidcAudience ?? parsed.registry, io.fetch);
  } catch (error) {
    if (!(error instanceof IdTokenUnavailable)) throw error;
    io.stderr(`registry publish: trusted publishing: ${error.message}\n`);
    return null;
  }
  const exchanged = await withRetries(io, 'publish', 'the trusted publishing exchange', () =>
    client.POST('/api/publish/oidc/token', { body: { token: idToken } }),
  );
  if (!exchanged.response.ok || !exchanged.data) {
    const problem = (exchanged.error ?? {}) as Problem;
    const advice =
      exchanged.response.status === 403
        ? 'no trusted publisher of the plugin matches this job: an owner adds one (repository, workflow, ref, environment) to the plugin, or you register a pending publisher for a new plugin'
        : "the ID token was refused: it must come from the forge's CI, for this registry's audience, and be fresh (each one is good for one exchange)";
    io.stderr(
      `registry publish: trusted publishing refused (HTTP ${exchanged.response.status}): ${problem.detail ?? 'no detail'}\n  ${advice}\n`,
    );
    return null;
  }
  return exchanged.data.token;
}

/**
 * The registry's kinds and extension fields, or null when the check goes on without them: with
 * --offline, when the registry's answer is not a kinds list (the registry still judges the push),
 * or for a dry run when the registry cannot be reached. A registry that cannot be reached for a
 * real push is retried, then a network failure (the push could not reach it either).
 */
async function registryKinds(io: CliIo, parsed: PublishArgs): Promise<RegistryKinds | null> {
  if (parsed.offline) return null;
  const attempts = parsed.dryRun ? 1 : 4;
  const delay = Number(io.env.REGISTRY_RETRY_DELAY_MS ?? 1000);
  for (let attempt = 1; ; attempt++) {
    const answer = await readRegistryKinds(io, parsed.registry);
    if (answer.ok) return answer.kinds;
    const what = `reading the kinds of ${parsed.registry}`;
    if (!answer.unreachable || attempt === attempts) {
      if (answer.unreachable && !parsed.dryRun) throw new NetworkFailure(`${what} failed after ${attempts} attempts: ${answer.reason}`);
      io.stderr(`registry publish: warning: ${what} failed (${answer.reason}); checked without them, the registry decides at the push\n`);
      return null;
    }
    io.stderr(`registry publish: ${what} failed (${answer.reason}); retrying\n`);
    await sleep(delay * 2 ** (attempt - 1));
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(args, io.env);
    if (parsed === 'help') {
      io.stdout(HELP);
      return EXIT_OK;
    }
    let token = io.env.REGISTRY_TOKEN;
    const trusted = token ? null : idTokenSource(io.env, parsed.oidcTokenEnv);
    if (!token && !trusted && !parsed.dryRun) {
      throw new UsageError(
        `no publisher token: set REGISTRY_TOKEN (create one with POST /api/auth/me/tokens, or in your account page), or use trusted publishing from GitHub Actions (permissions: id-token: write) or GitLab CI (id_tokens: ${parsed.oidcTokenEnv})`,
      );
    }

    const { file } = findManifest(resolve(io.cwd, parsed.manifest));
    const shown = relative(io.cwd, file) || basename(file);
    // Checked offline first: an invalid manifest never reaches the network.
    const tag = parsed.version ? { tag: parsed.version } : {};
    const offline = checkFile(file, { kinds: null, ...tag });
    if (!offline.ok) {
      io.stderr(violationsText(shown, offline));
      return EXIT_FAILURE;
    }
    // Then against the registry's kinds and extension fields, when it can be read.
    const kinds = await registryKinds(io, parsed);
    const checked = kinds ? checkFile(file, { ...kinds, ...tag }) : offline;
    if (!checked.ok) {
      io.stderr(violationsText(shown, checked));
      return EXIT_FAILURE;
    }
    io.stderr(warningsText(checked.warnings));
    const manifestText = readFileSync(file, 'utf8');
    const assets: PushAsset[] = [
      ...parsed.assets.map(assetFromArgument),
      ...(await Promise.all(parsed.assetFiles.map((a) => assetFromFile(a, io.cwd)))),
    ];
    const repoUrl = parsed.repoUrl ?? originRepositoryUrl(io.cwd) ?? undefined;
    const body = {
      manifest: manifestText,
      manifestSource: manifestSource(basename(file)),
      version: parsed.version ?? offline.manifest.version,
      assets,
      ...(repoUrl ? { repoUrl } : {}),
      ...(parsed.attestation ? { attestation: attestationFromFile(resolve(io.cwd, parsed.attestation)) } : {}),
    };
    const slug = offline.manifest.name;
    if (parsed.dryRun) {
      const authorization = token ? 'Bearer [REGISTRY_TOKEN]' : trusted ? `Bearer [trusted publishing: ${describeSource(trusted)}]` : null;
      io.stdout(JSON.stringify({ method: 'POST', url: `${parsed.registry}/api/publish/${slug}`, authorization, body }, null, 2) + '\n');
      return EXIT_OK;
    }

    const anonymous = createRegistryClient(parsed.registry, { fetch: io.fetch });
    if (!token) {
      const exchanged = await trustedToken(io, anonymous, trusted!, parsed);
      if (exchanged === null) return EXIT_FAILURE;
      token = exchanged;
    }
    const client = createRegistryClient(parsed.registry, { token, fetch: io.fetch });
    let attempts = 0;
    const pushed = await withRetries(io, 'publish', 'the push', () => {
      attempts += 1;
      return client.POST('/api/publish/{slug}', { params: { path: { slug } }, body });
    });
    const problem = (pushed.error ?? {}) as Problem;
    const earlier = pushed.response.ok ? null : ownEarlierRelease(pushed.response.status, problem, attempts, checked.sha256);
    if ((!pushed.response.ok || !pushed.data) && !earlier) {
      io.stderr(refusalText(pushed.response.status, problem));
      return EXIT_FAILURE;
    }
    if (earlier)
      io.stderr(
        `registry publish: an earlier attempt's answer was lost, but the registry recorded its release: ${slug}@${earlier.version} has this manifest\n`,
      );
    const result = earlier
      ? { slug, version: earlier.version, claimed: false, warnings: [] as string[] }
      : (pushed.data as unknown as { slug: string; version: string; claimed: boolean; warnings: string[] });
    const release = await client.GET('/api/plugins/{slug}/releases/{version}', {
      params: { path: { slug: result.slug, version: result.version } },
    });
    const signed = (release.data?.integrity?.assets ?? []).map((a) => ({ name: a.name, sha256: a.sha256, size: a.size }));
    if (parsed.json) {
      io.stdout(JSON.stringify({ ...result, signedAssets: signed }, null, 2) + '\n');
    } else {
      const lines = [`published ${result.slug}@${result.version}${result.claimed ? ' (claimed the new plugin name)' : ''}`];
      for (const asset of signed) lines.push(`  signed ${asset.name}  sha256 ${asset.sha256}  ${asset.size} bytes`);
      for (const warning of result.warnings) lines.push(`warning: ${warning}`);
      io.stdout(lines.join('\n') + '\n');
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`registry publish: ${error.message}\nrun 'registry publish --help' for usage\n`);
      return EXIT_USAGE;
    }
    if (error instanceof NetworkFailure) {
      io.stderr(`registry publish: ${error.message}\n`);
      return EXIT_NETWORK;
    }
    throw error;
  }
}
