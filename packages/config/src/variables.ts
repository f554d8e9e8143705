import type { Config } from './config';
import type { Rule } from './rules';
import type { ConfigVariable, SpecTable, VariableSpec } from './variable-spec';
import { LIMIT_VARIABLES } from './variables-limits';
import { OUTPUT_VARIABLES } from './variables-output';
import { SECURITY_VARIABLES } from './variables-security';
import { LOG_LEVELS, SERVICE_VARIABLES } from './variables-service';
import { SESSION_VARIABLES } from './variables-sessions';

export { LOG_LEVELS };
export type { ConfigVariable };

/**
 * Every variable, one entry per Config field, from the area files. A new variable is one entry in
 * the area it belongs to, with its `reader` and `tier` (a `tuning` one with its `why`); the
 * compiler refuses a Config field without one, and docs/configuration.md is regenerated from here
 * (`npm run docs:config`).
 */
const SPECS: SpecTable = {
  ...SERVICE_VARIABLES,
  ...SESSION_VARIABLES,
  ...OUTPUT_VARIABLES,
  ...SECURITY_VARIABLES,
  ...LIMIT_VARIABLES,
};

/** A spec with its field, erased to what the loader needs. */
export interface FieldSpec {
  field: keyof Config;
  name: string;
  default: string;
  description: string;
  secret: boolean;
  fromFile: boolean;
  rule: Rule<unknown>;
  defaultValue?: (env: NodeJS.ProcessEnv) => unknown;
}

export const FIELD_SPECS: readonly FieldSpec[] = (Object.keys(SPECS) as (keyof Config)[]).map((field) => {
  const spec = SPECS[field] as VariableSpec<keyof Config>;
  return {
    field,
    name: spec.name,
    default: spec.default,
    description: spec.description,
    secret: spec.secret === true,
    fromFile: spec.fromFile === true,
    // Each rule is paired with its own field in SPECS; erasing the type here is what lets one loop load them all.
    rule: spec.rule as Rule<unknown>,
    ...(spec.defaultValue ? { defaultValue: spec.defaultValue } : {}),
  };
});

/** The variables that hold secrets: a service drops them from its environment once read (dropSecretVariables). */
export const SECRET_VARIABLES: readonly string[] = FIELD_SPECS.filter((s) => s.secret || s.fromFile).map((s) => s.name);

export const CONFIG_VARIABLES: readonly Readonly<ConfigVariable>[] = Object.freeze(
  (Object.keys(SPECS) as (keyof Config)[]).map((field) => {
    const { name, default: def, description, reader, tier, why } = SPECS[field] as VariableSpec<keyof Config>;
    return Object.freeze({ name, field, default: def, description, reader, tier, ...(why ? { why } : {}) });
  }),
);
