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
 * also uses some for the live-shell integration), and what makes a program the session starts
 * later run a command of the variable's choosing: git runs GIT_SSH_COMMAND / GIT_SSH / GIT_EXTERNAL_DIFF / GIT_PAGER / GIT_EDITOR /
 * GIT_ASKPASS / GIT_CONFIG_*, less its LESSOPEN / LESSCLOSE preprocessors, Python imports the
 * module PYTHONWARNINGS names, and EDITOR / VISUAL / PAGER / SSH_ASKPASS / SUDO_ASKPASS are
 * run by name. Prompts (PS1, zsh's PROMPT …) are checked by value instead (unsafePrompt). PATH is deliberately not here: the creator already chooses argv outright, so PATH
 * adds no power, and sessions need it set. Exported bash functions (BASH_FUNC_*%%) fail the name
 * check. A denylist stays incomplete by nature: PTYWS_SESSION_ENV_ALLOW switches to an allowlist.
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
  'PYTHONWARNINGS',
  'PYTHONBREAKPOINT',
  'LESSOPEN',
  'LESSCLOSE',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_ASKPASS',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
]);

/**
 * Protected by name, or by family: every dynamic-loader variable (LD_*, macOS DYLD_*), and git's
 * GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> (a `core.sshCommand` or an alias runs a command).
 */
export function isProtectedEnv(name: string): boolean {
  return PROTECTED_ENV.has(name) || /^(LD_|DYLD_|GIT_CONFIG_)/.test(name);
}

/** Prompts a shell may expand (bash's promptvars, zsh's PROMPT_SUBST, which many zshrcs turn on). */
const PROMPTS: ReadonlySet<string> = new Set([
  'PS1',
  'PS2',
  'PS3',
  'PROMPT',
  'PROMPT2',
  'PROMPT3',
  'RPROMPT',
  'RPROMPT2',
  'RPS1',
  'RPS2',
]);

/**
 * Whether a prompt's value could run a command when the shell expands it: `$(…)`, backquotes,
 * `${…}` (`${x:=$(…)}`), `$[…]`, and bash's octal escapes (`\044(` decodes to `$(`) are
 * refused; a plain prompt such as `$ ` or `\u@\h:\w\$ ` is accepted.
 */
export function unsafePrompt(name: string, value: string): boolean {
  return PROMPTS.has(name) && /\$[({[]|`|\\[0-7]/.test(value);
}

/** What the operator allows a client's `env` (PTYWS_ALLOW_ENV_OVERRIDE, PTYWS_SESSION_ENV_ALLOW) and the login variables. */
export interface SessionEnvPolicy {
  /** Protected names clients may set anyway. */
  allowEnvOverride?: readonly string[];
  /** Allowlist mode: the only names clients may set; undefined: any name that is not protected. */
  envAllow?: readonly string[];
  /** The session user's HOME, USER, LOGNAME, in place of the service's own. */
  login?: Readonly<Record<string, string>>;
}

/** The session's environment: a minimal inherited base plus the client's validated variables. */
export function buildSessionEnv(
  requested: Record<string, string> | undefined,
  policy: SessionEnvPolicy = {},
): Record<string, string> {
  const env: Record<string, string> = { TERM: 'xterm-256color', COLORTERM: 'truecolor' };
  for (const name of INHERITED_ENV) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, policy.login);
  const allowOverride = policy.allowEnvOverride ?? [];
  for (const [name, value] of Object.entries(requested ?? {})) {
    if (!ENV_NAME.test(name))
      throw new BindingError('INVALID_REQUEST', `env name '${name}' is not a valid variable name`);
    if (policy.envAllow && !policy.envAllow.includes(name))
      throw new BindingError('INVALID_REQUEST', `env '${name}' is not in this service's allowed list`);
    if (isProtectedEnv(name) && !allowOverride.includes(name))
      throw new BindingError('INVALID_REQUEST', `env '${name}' may not be set by a client`);
    if (typeof value !== 'string') throw new BindingError('INVALID_REQUEST', `env '${name}' must be a string`);
    if (unsafePrompt(name, value) && !allowOverride.includes(name))
      throw new BindingError(
        'INVALID_REQUEST',
        `env '${name}' may not hold $(…), \`…\`, \${…}, $[…] or octal escapes: the shell would run it`,
      );
    if (value.includes('\0')) throw new BindingError('INVALID_REQUEST', `env '${name}' must not contain NUL`);
    env[name] = value;
  }
  return env;
}
