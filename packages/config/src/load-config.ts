import type { Config } from './config';
import { ConfigError } from './config-error';
import { describeValue } from './describe-value';
import { applyDerivedDefaults, crossFieldProblems, type Resolved } from './relations';
import { variableText } from './secret-files';
import { unknownVariableProblems } from './unknown-variables';
import { FIELD_SPECS, type FieldSpec } from './variables';

/**
 * Reads every PTYWS_* variable, applies defaults and validates, reporting ALL problems in one
 * ConfigError. A variable set to the empty string counts as unset (so `PTYWS_ADMIN_TOKEN=` in an
 * env file still generates a token). `overrides` win over `env` and are validated the same way;
 * an override of `undefined` means "not overridden".
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides?: Partial<Config>): Config {
  const problems: string[] = [];
  const resolved = new Map<keyof Config, Resolved>();
  const shown = (spec: FieldSpec, value: unknown): string => `${spec.name}=${describeValue(value, spec.secret)}`;

  for (const spec of FIELD_SPECS) {
    const override: unknown = overrides?.[spec.field];
    const { raw, problem: unreadable } = variableText(spec, env);
    if (unreadable !== undefined && override === undefined) {
      problems.push(unreadable);
      continue;
    }
    let r: Resolved;
    if (override !== undefined) {
      r = { value: override, source: 'override' };
    } else if (raw !== undefined && raw.trim() !== '') {
      const parsed = spec.rule.parse(raw);
      if (!parsed.ok) {
        problems.push(`${shown(spec, raw)}: ${parsed.problem}`);
        continue;
      }
      r = { value: parsed.value, source: 'env' };
    } else {
      r = { value: defaultOf(spec, env), source: 'default' };
      if (r.value === undefined) {
        resolved.set(spec.field, r);
        continue;
      }
    }
    const problem = spec.rule.check(r.value);
    if (problem !== undefined) {
      const origin = r.source === 'default' ? ' (the default)' : '';
      problems.push(`${shown(spec, r.source === 'env' ? raw : r.value)}${origin}: ${problem}`);
      continue;
    }
    resolved.set(spec.field, r);
  }

  applyDerivedDefaults(resolved);
  problems.push(...crossFieldProblems(resolved), ...unknownVariableProblems(env));
  if (problems.length > 0) throw new ConfigError(problems);

  const config: Partial<Record<keyof Config, unknown>> = {};
  for (const [field, { value }] of resolved) if (value !== undefined) config[field] = value;
  // Every field either resolved or produced a problem (and we threw), so the object is complete.
  return config as Config;
}

function defaultOf(spec: FieldSpec, env: NodeJS.ProcessEnv): unknown {
  if (spec.defaultValue) return spec.defaultValue(env);
  const parsed = spec.rule.parse(spec.default);
  // A default that does not parse is a bug in the table, not a user error; the config tests catch it.
  if (!parsed.ok) throw new Error(`default of ${spec.name} (${spec.default}) is invalid: ${parsed.problem}`);
  return parsed.value;
}

/**
 * Whether `field`'s variable is set in `env` by the loader's rule (empty counts as unset): for a
 * caller whose behaviour differs between a chosen value and the default (the agent falls back to
 * another metrics port only when the port was not chosen).
 */
export function variableIsSet(env: NodeJS.ProcessEnv, field: keyof Config): boolean {
  const spec = FIELD_SPECS.find((s) => s.field === field);
  return spec !== undefined && (env[spec.name] ?? '').trim() !== '';
}
