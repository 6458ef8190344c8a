import { createRegistryClient } from '../../client/registry-client';
import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../command';
import { UsageError } from '../manifest-files';
import { EXIT_NETWORK, NetworkFailure, secureRegistryUrl, withRetries } from '../registry-call';
import { DEFAULT_REGISTRY } from '../registry-kinds';
import { parseValueFlags, UsageError as FlagUsageError } from '../value-flags';

export const summary = 'deprecate a plugin you own, with a message and a replacement, or --undo it (REGISTRY_SESSION)';

const HELP = `usage: registry deprecate <slug> --message TEXT [--replacement SLUG] [--registry URL] [--json]
       registry deprecate <slug> --undo [--registry URL] [--json]

Marks a whole plugin deprecated (PUT /api/plugins/<slug>/deprecation): its releases stay
downloadable, it sinks below every other plugin in the catalogue, its page shows the message and
\`latest\` answers carry a Deprecation header. Sent again, it replaces the message and replacement.
--undo removes the mark (DELETE on the same path; nothing is recorded when there was none).

  --message TEXT      why, one line of 1-500 characters (required unless --undo)
  --replacement SLUG  another plugin of this registry to use instead
  --undo              remove the deprecation
  --registry URL      the registry (default: REGISTRY_URL, else ${DEFAULT_REGISTRY})
  --json              print the outcome as JSON

Deprecation is an owner's decision, not a CI step: publisher tokens have no scope for it. The
session comes from the environment variable REGISTRY_SESSION (the value of your registry_session
cookie, or what \`registry sessions issue <login>\` prints on the server), never from an argument;
owners and admins may deprecate.

Exit status: 0 done, 1 refused by the registry, 2 usage error, 3 the registry could not be reached
after retries.
`;

interface Problem {
  detail?: string;
  title?: string;
  errors?: { path: string; message: string }[];
}

const ADVICE: Record<number, string> = {
  400: 'the message must be one line of 1-500 characters, and the replacement a plugin slug',
  401: 'no valid session (a publisher token cannot deprecate): set REGISTRY_SESSION to a session of an owner or an admin',
  403: 'you are neither an owner of the plugin nor an admin, or an admin set this deprecation and only an admin can change it',
  404: 'no such plugin',
  422: 'the replacement names no plugin, this plugin, or a deprecated plugin whose replacement is this one',
};

function parseArgs(args: string[], env: CliIo['env']) {
  const rest = args.filter((arg) => arg !== '--json' && arg !== '--undo');
  if (rest.some((arg) => /^--(session|token)(=|$)/.test(arg)))
    throw new UsageError('a session is never taken from the command line; set REGISTRY_SESSION');
  let parsed: ReturnType<typeof parseValueFlags<'registry' | 'message' | 'replacement'>>;
  try {
    parsed = parseValueFlags(rest, { '--registry': 'registry', '--message': 'message', '--replacement': 'replacement' });
  } catch (error) {
    if (error instanceof FlagUsageError) throw new UsageError(error.message);
    throw error;
  }
  const [slug, ...extra] = parsed.positional;
  if (!slug || extra.length > 0) throw new UsageError('deprecate takes one plugin slug');
  const undo = args.includes('--undo');
  const { message, replacement } = parsed.values;
  if (undo && (message !== undefined || replacement !== undefined)) throw new UsageError('--undo takes no --message or --replacement');
  if (!undo && message === undefined) throw new UsageError('deprecate needs --message TEXT (or --undo)');
  const registry = secureRegistryUrl(parsed.values.registry ?? env.REGISTRY_URL ?? DEFAULT_REGISTRY, 'REGISTRY_SESSION');
  return { slug, undo, message, replacement, registry, json: args.includes('--json') };
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    if (args.includes('--help') || args.includes('-h')) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const parsed = parseArgs(args, io.env);
    const session = io.env.REGISTRY_SESSION;
    if (!session) {
      throw new UsageError(
        'set REGISTRY_SESSION to your session (the registry_session cookie); a publisher token (REGISTRY_TOKEN) cannot deprecate',
      );
    }
    const client = createRegistryClient(parsed.registry, { token: session, fetch: io.fetch });
    const path = { params: { path: { slug: parsed.slug } } };
    const answer = parsed.undo
      ? await withRetries(io, 'deprecate', 'the undo', () => client.DELETE('/api/plugins/{slug}/deprecation', path))
      : await withRetries(io, 'deprecate', 'the deprecation', () =>
          client.PUT('/api/plugins/{slug}/deprecation', {
            ...path,
            body: { message: parsed.message!, ...(parsed.replacement ? { replacement: parsed.replacement } : {}) },
          }),
        );
    if (!answer.data) {
      const status = answer.response.status;
      const problem = (answer.error ?? {}) as Problem;
      const lines = [
        `registry deprecate: refused (HTTP ${status}): ${problem.detail ?? problem.title ?? 'no detail'}`,
        `  ${ADVICE[status] ?? 'see the detail above'}`,
      ];
      for (const error of problem.errors ?? []) lines.push(`  ${error.path}: ${error.message}`);
      io.stderr(lines.join('\n') + '\n');
      return EXIT_FAILURE;
    }
    const { slug, deprecated } = answer.data;
    const text = deprecated
      ? `deprecated ${slug}: ${deprecated.message}${deprecated.replacement ? ` (use ${deprecated.replacement} instead)` : ''}\n`
      : `${slug} is not deprecated\n`;
    io.stdout(parsed.json ? JSON.stringify(answer.data, null, 2) + '\n' : text);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`registry deprecate: ${error.message}\nrun 'registry deprecate --help' for usage\n`);
      return EXIT_USAGE;
    }
    if (error instanceof NetworkFailure) {
      io.stderr(`registry deprecate: ${error.message}\n`);
      return EXIT_NETWORK;
    }
    throw error;
  }
}
