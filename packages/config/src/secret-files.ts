import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { FIELD_SPECS, SECRET_VARIABLES, type FieldSpec } from './variables';

/** `PTYWS_ADMIN_TOKEN_FILE` for `PTYWS_ADMIN_TOKEN`. */
export const fileVariable = (name: string): string => `${name}_FILE`;

/** The `<name>_FILE` variables the loader reads. */
export const FILE_VARIABLES: readonly string[] = FIELD_SPECS.filter((s) => s.fromFile).map((s) => fileVariable(s.name));

/**
 * A variable's text: from the environment, or from the file its `_FILE` variable names (one
 * trailing newline dropped, as `echo x > file` leaves it). Both set is a problem: which one wins
 * would be a guess.
 */
export function variableText(spec: FieldSpec, env: NodeJS.ProcessEnv): { raw?: string; problem?: string } {
  const direct = env[spec.name];
  const file = spec.fromFile ? env[fileVariable(spec.name)]?.trim() : undefined;
  if (file === undefined || file === '') return direct === undefined ? {} : { raw: direct };
  const fileName = fileVariable(spec.name);
  if (direct !== undefined && direct.trim() !== '')
    return { problem: `${spec.name} and ${fileName} are both set: set one of them` };
  if (!isAbsolute(file)) return { problem: `${fileName}=${file}: expected an absolute file path` };
  try {
    return { raw: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (err) {
    return { problem: `${fileName}=${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

/**
 * Removes the secret variables from this process's environment once the configuration is read,
 * so no process started later inherits them. What the process was started with stays readable in
 * /proc/<pid>/environ to its own user and root: the `_FILE` variables keep secrets out of it.
 */
export function dropSecretVariables(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_VARIABLES) delete env[name];
}
