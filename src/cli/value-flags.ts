/** The author tools' command-line parsing and their errors that are not a verdict. */

/** Not a verdict on the release: the registry, a download or a local file could not be read. */
export class OperationalError extends Error {}

/** The command line itself is wrong; the usage text is shown. */
export class UsageError extends OperationalError {}

/**
 * `--flag value` and `--flag=value` for the flags `valueFlags` names (flag -> option key), the
 * rest positional; an unknown option or a flag without its value is a UsageError.
 */
export function parseValueFlags<Key extends string>(
  args: string[],
  valueFlags: Readonly<Record<string, Key>>,
): { values: Partial<Record<Key, string>>; positional: string[] } {
  const values: Partial<Record<Key, string>> = {};
  const positional: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (Object.hasOwn(valueFlags, flag)) {
      const value = inline ?? args[++index];
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
      values[valueFlags[flag] as Key] = value;
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  return { values, positional };
}
