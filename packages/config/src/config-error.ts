/** Every problem found in the configuration at once, so one restart fixes them all. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`invalid configuration (${count}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = Object.freeze([...problems]);
  }
}
