import type { CliIo } from '../command';
import { EXIT_USAGE } from '../command';

export const summary = 'run the registry server (HTTP API, embedded database unless DATABASE_URL is set)';

const USAGE =
  'usage: registry serve [--mirror-of <url>]\n\n' +
  '  --mirror-of <url>  run a read-only mirror of the registry at <url> (sets MIRROR_OF)\n\n' +
  'Configuration comes from the environment and .env; see .env.example.\n';

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  let env = io.env;
  const rest = [...args];
  while (rest.length) {
    const arg = rest.shift()!;
    const inline = arg.startsWith('--mirror-of=') ? arg.slice('--mirror-of='.length) : null;
    if (arg !== '--mirror-of' && inline === null) {
      io.stderr(`registry serve: unexpected argument '${arg}'\n`);
      return EXIT_USAGE;
    }
    const value = inline ?? rest.shift();
    if (!value) {
      io.stderr('registry serve: --mirror-of needs the upstream registry\'s URL\n');
      return EXIT_USAGE;
    }
    env = { ...env, MIRROR_OF: value };
  }
  await import('reflect-metadata');
  const { serveUntilSignalled } = await import('../../server');
  return serveUntilSignalled(env, io.cwd, io.stderr);
}
