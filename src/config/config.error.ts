export interface ConfigProblem {
  variable: string;
  message: string;
}

/** Every bad variable at once, so an operator fixes the environment in one pass. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
