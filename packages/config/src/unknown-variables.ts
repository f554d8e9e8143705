import { REDACTED } from './describe-value';
import { FILE_VARIABLES } from './secret-files';
import { closestName } from './typo';
import { FIELD_SPECS } from './variables';

const KNOWN_NAMES: readonly string[] = [...FIELD_SPECS.map((s) => s.name), ...FILE_VARIABLES];

/** PTYWS_* names nobody reads: most often a typo that would silently leave the default in place. */
export function unknownVariableProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!/^PTYWS_/i.test(name) || KNOWN_NAMES.includes(name)) continue;
    const hint = closestName(name, KNOWN_NAMES);
    // An unknown name may be a misspelt PTYWS_ADMIN_TOKEN, so its value is never shown.
    problems.push(
      `${name}=${REDACTED}: unknown variable; ` +
        (hint ? `did you mean ${hint}?` : 'expected one of the PTYWS_* names in the configuration table'),
    );
  }
  return problems;
}
