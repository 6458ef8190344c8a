import type { CliIo, CommandModule } from './command';
import { EXIT_USAGE } from './command';

/** Subcommand name → module path. Loaded lazily so each command starts with only what it needs. */
const COMMANDS: Record<string, string> = {
  serve: './commands/serve',
  migrate: './commands/migrate',
  validate: './commands/validate',
  verify: './commands/verify',
  publish: './commands/publish',
  keys: './commands/keys',
  users: './commands/users',
  sessions: './commands/sessions',
};

function loadCommand(name: string): CommandModule | undefined {
  const path = COMMANDS[name];
  if (!path) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path) as CommandModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes(path.slice(2))) {
      return undefined;
    }
    throw error;
  }
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
