/**
 * The contract every `registry` subcommand implements. Commands live in `src/cli/commands/<name>.ts`
 * and export `run`; the dispatcher loads only the one that was asked for, so author tools
 * (`validate`, `verify`, `publish`) never pull in Nest, TypeORM or a database driver.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Outbound HTTP for author tools; injectable so tests can point it at a fake server. */
  fetch: typeof fetch;
}

export type CommandRunner = (args: string[], io: CliIo) => Promise<number>;

export interface CommandModule {
  run: CommandRunner;
  summary: string;
}

/** Exit codes shared by all commands. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** `verify` and `monitor`: the registry's log is not consistent with a tree head verified before. */
export const EXIT_FORKED = 3;
/** `verify`: the release's provenance attestation was refused (or required and missing, or not Sigstore). */
export const EXIT_PROVENANCE = 4;
