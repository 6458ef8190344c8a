import { ConfigError, type ConfigProblem } from './config.error';

export type Environment = Readonly<Record<string, string | undefined>>;

/** What is wrong with a raw value, one message per problem; a parser returns it instead of a value. */
export class Invalid {
  readonly messages: readonly string[];
  constructor(...messages: string[]) {
    this.messages = messages;
  }
}

export interface Parser<T> {
  /** What the variable takes, as the configuration reference shows it. */
  readonly type: string;
  /** `raw` is a set (non-blank) value, or the variable's declared default. */
  parse(raw: string): T | Invalid;
}

interface Declared<T> {
  readonly name: string;
  readonly parser: Parser<T>;
  /** One line for the configuration reference. */
  readonly description: string;
}

/**
 * A variable whose default is a raw value read by its own parser, so the default the reference
 * shows is the one the loader uses ('' reads as empty: a list with nothing in it).
 */
export interface VariableWithDefault<T> extends Declared<T> {
  readonly default: string;
}

/** A variable whose area works out what an unset one means; `unset` says it for the reference. */
export interface VariableWithoutDefault<T> extends Declared<T> {
  readonly unset: string;
}

export type ConfigVariable<T = unknown> = VariableWithDefault<T> | VariableWithoutDefault<T>;

/** A heading of the reference and the variables under it, in the order they are read. */
export interface ConfigArea {
  readonly title: string;
  readonly variables: readonly ConfigVariable[];
}

function blank(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === '';
}

/**
 * The one way the areas reach the environment: by a declared variable. It collects every bad
 * value instead of stopping at the first, so one ConfigError can name them all.
 */
export class EnvironmentReader {
  private readonly problems: ConfigProblem[] = [];

  constructor(private readonly env: Environment) {}

  /** The parsed value; the default when unset, or when bad (the problem is kept for `check`). */
  read<T>(variable: VariableWithDefault<T>): T;
  /** The parsed value; undefined when unset, or when bad (the problem is kept for `check`). */
  read<T>(variable: VariableWithoutDefault<T>): T | undefined;
  read<T>(variable: ConfigVariable<T>): T | undefined {
    const fallback = 'default' in variable ? parsedDefault(variable) : undefined;
    const raw = this.env[variable.name];
    if (blank(raw)) return fallback;
    const parsed = variable.parser.parse(raw);
    if (!(parsed instanceof Invalid)) return parsed;
    parsed.messages.forEach((message) => this.bad(variable, message));
    return fallback;
  }

  isSet(variable: ConfigVariable): boolean {
    return !blank(this.env[variable.name]);
  }

  /** For a rule that spans variables (one needs another, one is required in production). */
  bad(variable: ConfigVariable, message: string): void {
    this.problems.push({ variable: variable.name, message });
  }

  /** Throws one ConfigError naming every problem found so far. */
  check(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}

function parsedDefault<T>(variable: VariableWithDefault<T>): T {
  const value = variable.parser.parse(variable.default);
  // A declaration mistake, not the operator's: say so rather than report it as their problem.
  if (value instanceof Invalid)
    throw new Error(`${variable.name}'s declared default "${variable.default}" does not parse: ${value.messages.join('; ')}`);
  return value;
}
