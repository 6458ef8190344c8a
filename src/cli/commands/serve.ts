import type { CliIo } from '../command';
import { EXIT_USAGE } from '../command';

export const summary = 'run the registry server (HTTP API, embedded database unless DATABASE_URL is set)';

const USAGE =
  'usage: registry serve [--mirror-of <url>]\n\n' +
  '  --mirror-of <url>  run a read-only mirror of the registry at <url> (sets MIRROR_OF; see docs/mirror.md)\n\n' +
  'Configuration comes from the environment and .env; see .env.example.\n';

type Environment = CliIo['env'];

/** The server's environment from `serve`'s arguments, or the usage error to print. */
export function serveEnvironment(args: readonly string[], env: Environment): { env: Environment } | { error: string } {
  let result = env;
  const rest = [...args];
  while (rest.length) {
    const arg = rest.shift()!;
    const inline = arg.startsWith('--mirror-of=') ? arg.slice('--mirror-of='.length) : null;
    if (arg !== '--mirror-of' && inline === null) return { error: `registry serve: unexpected argument '${arg}'\n` };
    const value = inline ?? rest.shift();
    if (!value || value.startsWith('--')) return { error: "registry serve: --mirror-of needs the upstream registry's URL\n" };
    result = { ...result, MIRROR_OF: value };
  }
  return { env: result };
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  const parsed = serveEnvironment(args, io.env);
  if ('error' in parsed) {
    io.stderr(parsed.error);
    return EXIT_USAGE;
  }
  await import('reflect-metadata');
  const { serveUntilSignalled } = await import('../../server');
  return serveUntilSignalled(parsed.env, io.cwd, io.stderr);
}
