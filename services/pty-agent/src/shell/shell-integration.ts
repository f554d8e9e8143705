import path from 'node:path';
import type { SessionSpec } from '@pty-ws/ports';
import { ensurePrivateDir, writeFileAtomic } from '../agent-paths';
import { shellQuote } from '../hosts/run-command';
import { writeZshIntegration, zshIntegrationEnv } from './zsh-integration';

/**
 * Shell integration for the live-shell task executor: the session's interactive shell reports
 * each command's end and exit status as OSC 133 marks (`D;<exit>` then `A` before every prompt,
 * `C` when a command starts where the shell can tell). Inside tmux or screen the marks are wrapped
 * in the multiplexer's DCS passthrough, or the multiplexer would swallow them.
 */
const OSC_FUNCTION = `__ptyws_osc() {
  if [ -n "$TMUX" ]; then printf '\\033Ptmux;\\033\\033]133;%s\\007\\033\\\\' "$1"
  elif [ -n "$STY" ]; then printf '\\033P\\033]133;%s\\007\\033\\\\' "$1"
  else printf '\\033]133;%s\\007' "$1"; fi
}`;

/** Loaded by PROMPT_COMMAND on the first prompt, so login files that reset PS0 run first. */
const BASH_FILE = `# pty-ws shell integration for bash (OSC 133).
__ptyws_loaded=1
${OSC_FUNCTION}
__ptyws_prompt() { __ptyws_osc "D;$__ptyws_s"; __ptyws_osc A; return "$__ptyws_s"; }
# PS0 through prompt escapes, not $(...): no subshell per command for ^C to land in.
if [ -n "$TMUX" ]; then PS0='\\ePtmux;\\e\\e]133;C\\a\\e\\\\'"$PS0"
elif [ -n "$STY" ]; then PS0='\\eP\\e]133;C\\a\\e\\\\'"$PS0"
else PS0='\\e]133;C\\a'"$PS0"; fi
`;

/** Read by interactive POSIX shells through $ENV. They have no pre-command hook: no C mark. */
const POSIX_FILE = `# pty-ws shell integration for POSIX sh (OSC 133), read through $ENV.
${OSC_FUNCTION}
PS1='$(__ptyws_s=$?; __ptyws_osc "D;$__ptyws_s"; __ptyws_osc A; exit "$__ptyws_s")'"\${PS1-\\$ }"
`;

export type ShellKind = 'bash' | 'zsh' | 'posix';

const POSIX_SHELLS = new Set(['sh', 'dash', 'ash', 'ksh', 'mksh', 'posh']);

/** The kind of interactive shell argv starts, or undefined (a program, or a shell given `-c`). */
export function shellKindOf(argv: readonly string[]): ShellKind | undefined {
  const name = path.basename(argv[0] ?? '').replace(/^-/, '');
  const kind: ShellKind | undefined =
    name === 'bash' || name === 'zsh' ? name : POSIX_SHELLS.has(name) ? 'posix' : undefined;
  if (!kind) return undefined;
  for (const arg of argv.slice(1)) {
    if (arg === '--' || !arg.startsWith('-')) return arg === '--' ? kind : undefined; // a script
    if (!arg.startsWith('--') && arg.slice(1).includes('c')) return undefined; // runs a command string
    // zsh -f / --no-rcs reads no start-up files, so it never loads the integration.
    if (kind === 'zsh' && (arg === '--no-rcs' || arg === '--norcs' || (!arg.startsWith('--') && arg.includes('f'))))
      return undefined;
  }
  return kind;
}

/** Writes the integration files (once per agent start): bash, POSIX sh, and zsh (zsh-integration.ts). */
export function writeShellIntegration(dir: string): void {
  ensurePrivateDir(dir);
  writeFileAtomic(path.join(dir, 'bash.sh'), BASH_FILE, 0o644);
  writeFileAtomic(path.join(dir, 'posix.sh'), POSIX_FILE, 0o644);
  writeZshIntegration(dir, OSC_FUNCTION);
}

/**
 * The spec to start a live-shell session with: the session's own spec plus the variables that
 * install the integration. `kind` is absent when argv is not a shell the agent knows how to set
 * up; its tasks then run in the process executor.
 */
export function withShellIntegration(spec: SessionSpec, dir: string): { spec: SessionSpec; kind?: ShellKind } {
  const kind = shellKindOf(spec.argv);
  if (!kind) return { spec };
  const env = { ...spec.env };
  if (kind === 'bash') {
    const own = env['PROMPT_COMMAND'];
    const load = `[ -n "$__ptyws_loaded" ] || . ${shellQuote(path.join(dir, 'bash.sh'))}`;
    // $? first: it is the status of the command that just ended.
    env['PROMPT_COMMAND'] = `__ptyws_s=$?; ${load}; __ptyws_prompt${own ? `; ${own}` : ''}`;
  } else if (kind === 'zsh') {
    return { spec: { ...spec, env: zshIntegrationEnv(env, dir) }, kind };
  } else {
    env['ENV'] = path.join(dir, 'posix.sh');
  }
  return { spec: { ...spec, env }, kind };
}
