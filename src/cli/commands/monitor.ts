import type { CliIo } from '../command';
import { EXIT_FAILURE, EXIT_FORKED, EXIT_OK, EXIT_USAGE } from '../command';
import { LogUnreachableError, LogVerificationError } from '../log-client';
import { monitorPass } from '../log-monitor';
import { StateFileError, statePath } from '../log-state';

export const summary = "follow a registry's transparency log and re-verify every new entry";

const USAGE = `usage: registry monitor <url> [--once] [--state FILE] [--interval S]

Follows the registry's transparency log from the size remembered in the state file: checks each
new signed tree head with the registry's key set and for consistency with the last one, reads the
new entries from the log's entry tiles (one by one from /api/log/entries where /log/tile
answers 404, saying so once), recomputes the root from them, and re-verifies every release they
name (signature, kid, and that the served signature is the one logged), each release's yank
state and the key set. Prints one line per problem. A mirror serves its upstream's log: pointed
at one, this follows upstream's log and re-verifies the releases as the mirror serves them.

  --once          one pass, then exit with its status (default: repeat forever)
  --state FILE    the state file (default: $XDG_STATE_HOME/registry/log-heads.json or
                  ~/.local/state/registry/log-heads.json; shared with registry verify)
  --interval S    seconds between passes (default 300)

exit status (with --once): 0 no problem, 1 a problem was found, 2 usage error or registry
unreachable, 3 the tree head is not consistent with one seen before (a forked view)
`;

interface MonitorOptions {
  registry: string;
  once: boolean;
  statePath?: string;
  intervalSeconds: number;
}

class UsageError extends Error {}

function parseArgs(args: string[]): MonitorOptions {
  const positional: string[] = [];
  const options: Omit<MonitorOptions, 'registry'> = { once: false, intervalSeconds: 300 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--once') options.once = true;
    else if (arg === '--state' || arg === '--interval') {
      const value = args[++i];
      if (value === undefined || value === '') throw new UsageError(`${arg} needs a value`);
      if (arg === '--state') options.statePath = value;
      else if (/^[1-9][0-9]{0,6}$/.test(value)) options.intervalSeconds = Number(value);
      else throw new UsageError('--interval takes whole seconds from 1');
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError('expected exactly one registry <url>');
  const registry = positional[0]!.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(registry) || !URL.canParse(registry)) throw new UsageError(`registry '${registry}' is not an http(s) URL`);
  return { registry, ...options };
}

/** `said`: the notices printed by earlier passes of this run, not printed again. */
async function pass(io: CliIo, options: MonitorOptions, said: Set<string>): Promise<number> {
  try {
    const result = await monitorPass(io, options.registry, statePath(io, options.statePath));
    for (const notice of result.notices.filter((notice) => !said.has(notice))) {
      said.add(notice);
      io.stderr(`registry monitor: ${notice}\n`);
    }
    for (const line of result.lines) io.stdout(`${line}\n`);
    for (const problem of result.problems) io.stdout(`problem: ${problem}\n`);
    return result.forked ? EXIT_FORKED : result.problems.length > 0 ? EXIT_FAILURE : EXIT_OK;
  } catch (error) {
    if (error instanceof LogVerificationError) {
      io.stdout(`problem: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    if (error instanceof LogUnreachableError || error instanceof StateFileError) {
      io.stderr(`registry monitor: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  let options: MonitorOptions;
  try {
    options = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`registry monitor: ${error.message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  const said = new Set<string>();
  if (options.once) return pass(io, options, said);
  for (;;) {
    await pass(io, options, said);
    await new Promise((resolve) => setTimeout(resolve, options.intervalSeconds * 1000));
  }
}
