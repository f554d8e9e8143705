import type { SessionSpec } from '@pty-ws/ports';
import { ensurePrivateDir, writeFileAtomic, type AgentPaths } from '../agent-paths';
import type { ClientCommand, Multiplexer } from './multiplexer-host';
import { MultiplexerHost } from './multiplexer-host';
import { runCommand } from './run-command';
import { StatusFiles } from './status-files';

/**
 * The private screenrc: no start-up message, status line, bell text or utmp entry, and no
 * command character, so every key reaches the program and screen draws nothing of its own.
 */
export const SCREENRC = [
  '# Written by the pty-ws agent at start.',
  'startup_message off',
  'hardstatus off',
  "escape ''",
  'vbell off',
  "bell_msg ''",
  "activity ''",
  'msgwait 0',
  'msgminwait 0',
  'deflogin off',
  'defflow off',
  'defutf8 on',
  // A killed client detaches the session instead of ending it (agent restart).
  'autodetach on',
  'altscreen on',
  'term screen-256color',
  '',
].join('\n');

/**
 * screen cannot report a program's exit status, so windows run this wrapper: it records the
 * program's pid and, when it ends, its status, then holds the window (like tmux remain-on-exit)
 * until the agent ends the session — or until the terminal goes away.
 */
export const SCREEN_WRAPPER = `#!/bin/sh
# Written by the pty-ws agent. Usage: screen-run.sh <status file> <pid file> argv...
st=$1 pidf=$2
shift 2
# Handlers, not ignores: handlers reset on exec, so the program still gets ^C and hangups,
# while this shell survives them to record the status. A hangup reaching this shell means the
# session itself is ending (killed), which is not the program's exit: then nothing is recorded.
hup=
trap : INT QUIT TERM
trap 'hup=1' HUP
sh -c 'printf %s "$$" > "$0.tmp" && mv -f "$0.tmp" "$0"; exec "$@"' "$pidf" "$@"
s=$?
[ -n "$hup" ] && exit "$s"
printf 'status=%s signal=\\n' "$s" > "$st.tmp" && mv -f "$st.tmp" "$st"
# Hold without echoing keys; reading ends (EOF) when the session's terminal is gone.
stty -echo 2>/dev/null
while IFS= read -r _; do :; done
`;

/** screen's socket is <SCREENDIR>/<pid>.<name>; Unix socket paths hold at most 107 bytes. */
const MAX_SOCKET_PATH = 107;
const MAX_PID_DIGITS = 7;

class Screen implements Multiplexer {
  readonly backend = 'screen' as const;
  readonly files: StatusFiles;

  constructor(
    private readonly program: string,
    private readonly paths: AgentPaths,
  ) {
    this.files = new StatusFiles(paths.screenRun);
  }

  prepare(): void {
    ensurePrivateDir(this.paths.root);
    ensurePrivateDir(this.paths.screenDir);
    ensurePrivateDir(this.paths.screenRun);
    writeFileAtomic(this.paths.screenrc, SCREENRC);
    writeFileAtomic(this.paths.screenWrapper, SCREEN_WRAPPER, 0o700);
  }

  private clientEnv(spec?: SessionSpec): Record<string, string> {
    const env: Record<string, string> = {
      TERM: spec?.env['TERM'] ?? 'xterm-256color',
      SCREENDIR: this.paths.screenDir,
    };
    const path = spec?.env['PATH'] ?? process.env['PATH'];
    if (path) env['PATH'] = path;
    return env;
  }

  createCommand(name: string, spec: SessionSpec): ClientCommand {
    if (this.paths.screenDir.length + 2 + MAX_PID_DIGITS + name.length > MAX_SOCKET_PATH) {
      throw new Error(`PTYWS_STATE_DIR is too long for screen's socket path (${this.paths.screenDir})`);
    }
    const wrapped = [this.paths.screenWrapper, this.files.statusPath(name), this.files.pidPath(name), ...spec.argv];
    return {
      argv: [this.program, '-U', '-c', this.paths.screenrc, '-S', name, ...wrapped],
      // The screen process hands its own environment to the window: the session's, plus SCREENDIR
      // so `screen -ls` inside finds the session.
      env: { ...spec.env, SCREENDIR: this.paths.screenDir },
    };
  }

  async attachCommand(name: string): Promise<ClientCommand> {
    const target = (await this.sockets()).find((s) => s.slice(s.indexOf('.') + 1) === name) ?? name;
    // -d -r: take the session over even if a dead agent's client still counts as attached.
    return { argv: [this.program, '-U', '-c', this.paths.screenrc, '-A', '-d', '-r', target], env: this.clientEnv() };
  }

  async programPid(name: string): Promise<number | undefined> {
    return this.files.readPid(name);
  }

  /** `<pid>.<name>` of every live session; dead sockets are wiped on the way. */
  private async sockets(): Promise<string[]> {
    const out = await runCommand(this.program, ['-ls'], this.clientEnv());
    if (/\(Dead/.test(out.stdout)) await runCommand(this.program, ['-wipe'], this.clientEnv());
    const found: string[] = [];
    for (const line of out.stdout.split('\n')) {
      const m = /^\s+(\d+\.[A-Za-z0-9_-]+)\s+.*\((?:Attached|Detached|Multi, attached|Multi, detached)\)/.exec(line);
      if (m?.[1]) found.push(m[1]);
    }
    return found;
  }

  async list(): Promise<string[]> {
    return (await this.sockets()).map((s) => s.slice(s.indexOf('.') + 1));
  }

  async killSession(name: string): Promise<void> {
    // Address the exact `<pid>.<name>`: screen matches a bare name as a prefix.
    const socket = (await this.sockets()).find((s) => s.slice(s.indexOf('.') + 1) === name);
    if (socket) await runCommand(this.program, ['-S', socket, '-X', 'quit'], this.clientEnv());
  }
}

/** The `screen`/`managed` backend, with SCREENDIR private to this agent. */
export function createScreenHost(program: string, paths: AgentPaths): MultiplexerHost {
  return new MultiplexerHost(new Screen(program, paths));
}
