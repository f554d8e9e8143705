import { ConfigError, loadConfig, type Config } from '../src';

/** Runs loadConfig expecting failure and returns its problems. */
export function problemsOf(env: NodeJS.ProcessEnv, overrides?: Partial<Config>): readonly string[] {
  try {
    loadConfig(env, overrides);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}
