import { BindingError } from '@pty-ws/protocol';

/** Variables passed through from the agent: enough for a usable shell, never the agent's secrets. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'SHELL'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Variables a client may not set unless the operator allows them (PTYWS_ALLOW_ENV_OVERRIDE):
 * they make code run that the session's argv does not name — the dynamic loader's (every LD_*,
 * and glibc's GCONV_PATH, GLIBC_TUNABLES, LOCPATH, NLSPATH, HOSTALIASES), the start-up hooks of
 * interpreters (node, Python, Perl, Ruby, the JVM) and of every shell the session or its tasks
 * start (BASH_ENV, ENV, ZDOTDIR, PROMPT_COMMAND, PS0/PS4 with SHELLOPTS/BASHOPTS; the agent
 * also uses some for the live-shell integration). PATH is deliberately not here: the creator
 * already chooses argv outright, so PATH adds no power, and sessions need it set; nor is PS1,
 * which shells expect to be settable. Exported bash functions (BASH_FUNC_*%%) fail the name check.
 */
export const PROTECTED_ENV: ReadonlySet<string> = new Set([
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'LD_DEBUG',
  'LD_DEBUG_OUTPUT',
  'LD_PROFILE',
  'GCONV_PATH',
  'GLIBC_TUNABLES',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'PS0',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
]);

/** Protected by name, or by family: every dynamic-loader variable (LD_*, macOS DYLD_*). */
export function isProtectedEnv(name: string): boolean {
  return PROTECTED_ENV.has(name) || name.startsWith('LD_') || name.startsWith('DYLD_');
}

/** The session's environment: a minimal inherited base plus the client's validated variables. */
export function buildSessionEnv(
  requested: Record<string, string> | undefined,
  allowOverride: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = { TERM: 'xterm-256color', COLORTERM: 'truecolor' };
  for (const name of INHERITED_ENV) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  for (const [name, value] of Object.entries(requested ?? {})) {
    if (!ENV_NAME.test(name))
      throw new BindingError('INVALID_REQUEST', `env name '${name}' is not a valid variable name`);
    if (isProtectedEnv(name) && !allowOverride.includes(name))
      throw new BindingError('INVALID_REQUEST', `env '${name}' may not be set by a client`);
    if (typeof value !== 'string') throw new BindingError('INVALID_REQUEST', `env '${name}' must be a string`);
    if (value.includes('\0')) throw new BindingError('INVALID_REQUEST', `env '${name}' must not contain NUL`);
    env[name] = value;
  }
  return env;
}
