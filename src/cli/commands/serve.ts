import type { CliIo } from '../command';
import { EXIT_USAGE } from '../command';

export const summary = 'run the registry server (HTTP API, embedded database unless DATABASE_URL is set)';

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help')) {
    io.stdout('usage: registry serve\n\nConfiguration comes from the environment and .env; see .env.example.\n');
    return 0;
  }
  if (args.length) {
    io.stderr(`registry serve: unexpected argument '${args[0]}'\n`);
    return EXIT_USAGE;
  }
  await import('reflect-metadata');
  const { serveUntilSignalled } = await import('../../server');
  return serveUntilSignalled(io.env, io.cwd, io.stderr);
}
