import path from 'node:path';
import { writeFileAtomic, ensurePrivateDir } from '../agent-paths';
import { shellQuote } from '../hosts/run-command';

/**
 * zsh reads its start-up files from $ZDOTDIR, so the agent points ZDOTDIR at a directory of its
 * own whose .zshenv first gives the user's ZDOTDIR back (every later file — .zprofile, .zshrc,
 * .zlogin — is then the user's own, and child shells see no trace of the agent), sources the
 * user's .zshenv, then installs the OSC 133 hooks for interactive shells: precmd reports the
 * status (`D;<exit>`) and the prompt (`A`), preexec the command start (`C`).
 */
const SAVED = '__PTYWS_ZDOTDIR';

function zshenv(hooksFile: string): string {
  return `# pty-ws shell integration for zsh (OSC 133), reached through ZDOTDIR.
if [[ -n \${${SAVED}+x} ]]; then
  ZDOTDIR=$${SAVED}
  unset ${SAVED}
else
  unset ZDOTDIR
fi
if [[ -f "\${ZDOTDIR:-$HOME}/.zshenv" ]]; then
  builtin source "\${ZDOTDIR:-$HOME}/.zshenv"
fi
if [[ -o interactive ]]; then
  builtin source ${shellQuote(hooksFile)}
fi
`;
}

/** The hooks; `osc` is the shared mark printer (passthrough inside tmux and screen). */
function zshHooks(osc: string): string {
  return `# pty-ws shell integration for zsh (OSC 133): hooks for the interactive shell.
${osc}
# First in precmd_functions, so $? is still the status of the command that just ended.
__ptyws_precmd() { local s=$?; __ptyws_osc "D;$s"; __ptyws_osc A; return $s; }
__ptyws_preexec() { __ptyws_osc C; }
typeset -ga precmd_functions preexec_functions
precmd_functions=(__ptyws_precmd \${precmd_functions:#__ptyws_precmd})
preexec_functions=(\${preexec_functions:#__ptyws_preexec} __ptyws_preexec)
`;
}

export function zshDotDir(dir: string): string {
  return path.join(dir, 'zsh');
}

/** Writes the ZDOTDIR and the hooks file under the integration directory. */
export function writeZshIntegration(dir: string, osc: string): void {
  const dotDir = zshDotDir(dir);
  const hooks = path.join(dir, 'zsh-hooks.zsh');
  ensurePrivateDir(dotDir);
  writeFileAtomic(hooks, zshHooks(osc), 0o644);
  writeFileAtomic(path.join(dotDir, '.zshenv'), zshenv(hooks), 0o644);
}

/**
 * The session environment with the integration's ZDOTDIR. The session's own ZDOTDIR (when it
 * has one) travels in a variable only the agent sets, so a client cannot smuggle one in by it.
 */
export function zshIntegrationEnv(env: Record<string, string>, dir: string): Record<string, string> {
  const out = { ...env };
  delete out[SAVED];
  if (env['ZDOTDIR'] !== undefined) out[SAVED] = env['ZDOTDIR'];
  out['ZDOTDIR'] = zshDotDir(dir);
  return out;
}
