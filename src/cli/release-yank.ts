import { createRegistryClient } from '../client/registry-client';
import type { CliIo } from './command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './command';
import { UsageError } from './manifest-files';
import { EXIT_NETWORK, NetworkFailure, secureRegistryUrl, withRetries } from './registry-call';
import { DEFAULT_REGISTRY } from './registry-kinds';
import { parseValueFlags } from './value-flags';
import { UsageError as FlagUsageError } from './value-flags';

export type YankOperation = 'yank' | 'unyank';

const EXIT_TEXT = `Exit status: 0 done (also when the release already was in that state), 1 refused by the
registry, 2 usage error, 3 the registry could not be reached after retries.`;

const TOKEN_TEXT = `The publisher token comes from the environment variable REGISTRY_TOKEN, never from an argument;
it needs the scope yank:<slug> (or yank:*) and its owner must own the plugin now. A trusted
publisher's token has it when the trusted publisher allows yanking.`;

export const YANK_HELP = `usage: registry yank <slug> <version> [--reason TEXT] [--registry URL] [--json]

Yanks a release (POST /api/publish/<slug>/yank): \`latest\` and the catalogue pass over it, and it
stays downloadable by its exact version, marked yanked, its signature intact. The yank is audited
and appended to the registry's transparency log; \`registry unyank\` undoes it.

  --reason TEXT   why, shown with the release (at most 500 characters)
  --registry URL  the registry (default: REGISTRY_URL, else ${DEFAULT_REGISTRY})
  --json          print the outcome as JSON

${TOKEN_TEXT}

${EXIT_TEXT}
`;

export const UNYANK_HELP = `usage: registry unyank <slug> <version> [--registry URL] [--json]

Restores a yanked release (POST /api/publish/<slug>/yank with undo): it counts for \`latest\` again.
Audited and appended to the registry's transparency log like the yank.

  --registry URL  the registry (default: REGISTRY_URL, else ${DEFAULT_REGISTRY})
  --json          print the outcome as JSON

${TOKEN_TEXT}

${EXIT_TEXT}
`;

interface Problem {
  detail?: string;
  title?: string;
  errors?: { path: string; message: string }[];
}

const ADVICE: Record<number, string> = {
  400: 'the version is not a semantic version, or the reason is over 500 characters',
  401: 'the token is missing, expired or revoked: create a new publisher token and set REGISTRY_TOKEN',
  403: "the token's scopes do not permit yanking this plugin (it needs yank:<slug> or yank:*), or the plugin is not yours",
  404: 'no such plugin, or no such release of it',
  429: 'too many requests: wait a minute and try again',
};

/** `--json`, `--reason` (yank only) and `--registry`; exactly a slug and a version. */
function parseArgs(operation: YankOperation, args: string[], env: CliIo['env']) {
  const flags = args.filter((arg) => arg !== '--json');
  if (flags.some((arg) => arg === '--token' || arg.startsWith('--token='))) {
    throw new UsageError('a token is never taken from the command line (it would land in shell history and CI logs); set REGISTRY_TOKEN');
  }
  let parsed: ReturnType<typeof parseValueFlags<'registry' | 'reason'>>;
  try {
    parsed = parseValueFlags(
      flags,
      operation === 'yank' ? { '--registry': 'registry', '--reason': 'reason' } : { '--registry': 'registry' },
    );
  } catch (error) {
    if (error instanceof FlagUsageError) throw new UsageError(error.message);
    throw error;
  }
  const [slug, version, ...extra] = parsed.positional;
  if (!slug || !version || extra.length > 0) throw new UsageError(`${operation} takes a plugin slug and a version`);
  const reason = parsed.values.reason;
  if (reason !== undefined && reason.length > 500) throw new UsageError('--reason is at most 500 characters');
  const registry = secureRegistryUrl(parsed.values.registry ?? env.REGISTRY_URL ?? DEFAULT_REGISTRY, 'REGISTRY_TOKEN');
  return { slug, version, reason, registry, json: args.includes('--json') };
}

/** `registry yank` and `registry unyank`: one route, `undo` telling them apart. */
export async function runYank(operation: YankOperation, args: string[], io: CliIo): Promise<number> {
  const command = `registry ${operation}`;
  try {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout(operation === 'yank' ? YANK_HELP : UNYANK_HELP);
      return EXIT_OK;
    }
    const parsed = parseArgs(operation, args, io.env);
    const token = io.env.REGISTRY_TOKEN;
    if (!token)
      throw new UsageError(
        'no publisher token: set REGISTRY_TOKEN to a token with the scope yank:<slug> (create one in your account page)',
      );
    const client = createRegistryClient(parsed.registry, { token, fetch: io.fetch });
    const body = {
      version: parsed.version,
      ...(parsed.reason !== undefined ? { reason: parsed.reason } : {}),
      ...(operation === 'unyank' ? { undo: true } : {}),
    };
    const answer = await withRetries(io, operation, `the ${operation}`, () =>
      client.POST('/api/publish/{slug}/yank', { params: { path: { slug: parsed.slug } }, body }),
    );
    if (!answer.data) {
      const status = answer.response.status;
      const problem = (answer.error ?? {}) as Problem;
      const lines = [
        `${command}: refused (HTTP ${status}): ${problem.detail ?? problem.title ?? 'no detail'}`,
        `  ${ADVICE[status] ?? 'see the detail above'}`,
      ];
      for (const error of problem.errors ?? []) lines.push(`  ${error.path}: ${error.message}`);
      io.stderr(lines.join('\n') + '\n');
      return EXIT_FAILURE;
    }
    const result = answer.data;
    io.stdout(
      parsed.json ? JSON.stringify(result, null, 2) + '\n' : `${result.yanked ? 'yanked' : 'restored'} ${result.slug}@${result.version}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${command}: ${error.message}\nrun '${command} --help' for usage\n`);
      return EXIT_USAGE;
    }
    if (error instanceof NetworkFailure) {
      io.stderr(`${command}: ${error.message}\n`);
      return EXIT_NETWORK;
    }
    throw error;
  }
}
