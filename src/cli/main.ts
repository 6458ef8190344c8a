import type { CliIo, CommandModule } from './command';
import { EXIT_USAGE } from './command';

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * Subcommand name → its module, loaded lazily so each command starts with only what it needs (the
 * author tools never load Nest or a database driver). The paths are literal so a bundler can follow
 * them: scripts/build-cli.js bundles this file into the single-file CLI the registry serves, with
 * the operator commands left out.
 */
const COMMANDS: Record<string, () => CommandModule> = {
  serve: () => require('./commands/serve'),
  migrate: () => require('./commands/migrate'),
  validate: () => require('./commands/validate'),
  verify: () => require('./commands/verify'),
  latest: () => require('./commands/latest'),
  monitor: () => require('./commands/monitor'),
  publish: () => require('./commands/publish'),
  yank: () => require('./commands/yank'),
  unyank: () => require('./commands/unyank'),
  deprecate: () => require('./commands/deprecate'),
  keys: () => require('./commands/keys'),
  users: () => require('./commands/users'),
  sessions: () => require('./commands/sessions'),
  subscriptions: () => require('./commands/subscriptions'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

function loadCommand(name: string): CommandModule | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name]() : undefined;
}

function usage(io: CliIo): void {
  const lines = ['usage: registry <command> [options]', '', 'commands:'];
  for (const name of Object.keys(COMMANDS)) {
    const command = loadCommand(name);
    if (command) lines.push(`  ${name.padEnd(10)} ${command.summary}`);
  }
  io.stderr(lines.join('\n') + '\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    usage(io);
    return name ? 0 : EXIT_USAGE;
  }
  const command = loadCommand(name);
  if (!command) {
    io.stderr(`registry: unknown command '${name}'\n`);
    usage(io);
    return EXIT_USAGE;
  }
  return command.run(rest, io);
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    fetch: globalThis.fetch,
  };
}

if (require.main === module) {
  main(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`registry: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
