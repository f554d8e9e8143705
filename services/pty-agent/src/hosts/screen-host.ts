import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PtyHost, SessionSpec } from '@pty-ws/ports';
import { ensurePrivateDir, writeFileAtomic, type AgentPaths } from '../agent-paths';
import type { CapturedHistory } from './history-backfill';
import type { ClientCommand, Multiplexer } from './multiplexer-host';
import { MultiplexerHost } from './multiplexer-host';
import { runCommand } from './run-command';
import { StatusFiles } from './status-files';

/** Rows of output a window keeps above its screen: how far back a re-attaching agent can recover. */
export const SCREEN_HISTORY_LINES = 10_000;

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
  // How far back a restarted agent can append what it missed (history-backfill.ts).
  `defscrollback ${SCREEN_HISTORY_LINES}`,
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

/** `-X hardcopy` returns before screen writes the file: how long to wait for it, and how often to look. */
const HARDCOPY_WAIT_MS = 1000;
const HARDCOPY_POLL_MS = 15;

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

  /** The exact `<pid>.<name>`: screen matches a bare name as a prefix. */
  private async socketOf(name: string): Promise<string | undefined> {
    return (await this.sockets()).find((s) => s.slice(s.indexOf('.') + 1) === name);
  }

  async killSession(name: string): Promise<void> {
    const socket = await this.socketOf(name);
    if (socket) await runCommand(this.program, ['-S', socket, '-X', 'quit'], this.clientEnv());
  }

  /**
   * The held window keeps the program's last screen (the wrapper reads until the session ends),
   * so a hardcopy of it says which line the agent's client must have drawn before it is muted.
   * Without it, a program that prints and exits at once could be muted before its output was drawn.
   */
  async finalLine(name: string): Promise<string | undefined> {
    return (await this.hardcopy(name, false))
      ?.split('\n')
      .filter((l) => l.trim() !== '')
      .pop();
  }

  /** The window's scrollback and screen now (`hardcopy -h`: plain text, every row of the screen). */
  async history(name: string, rows: number): Promise<CapturedHistory | undefined> {
    const text = await this.hardcopy(name, true);
    if (text === undefined) return undefined;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const screenTop = Math.max(0, lines.length - rows);
    return { lines, screenTop, limit: SCREEN_HISTORY_LINES, full: screenTop >= SCREEN_HISTORY_LINES, alternate: false };
  }

  private async hardcopy(name: string, withHistory: boolean): Promise<string | undefined> {
    const socket = await this.socketOf(name);
    if (!socket) return undefined;
    const file = path.join(this.paths.screenRun, `${name}.hardcopy`);
    rmSync(file, { force: true });
    try {
      const args = ['-S', socket, '-p', '0', '-X', 'hardcopy', ...(withHistory ? ['-h'] : []), file];
      const out = await runCommand(this.program, args, this.clientEnv());
      return out.code === 0 ? await finishedFile(file) : undefined;
    } finally {
      rmSync(file, { force: true });
    }
  }
}

/**
 * The text of a file another process is writing, once it has stopped changing (a finished
 * hardcopy is never empty: it has a line per row); undefined if it never appears.
 */
async function finishedFile(file: string): Promise<string | undefined> {
  const deadline = Date.now() + HARDCOPY_WAIT_MS;
  let previous = '';
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, HARDCOPY_POLL_MS));
    const now = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (now !== '' && now === previous) return now;
    previous = now;
  }
  return undefined;
}

/** The `screen`/`managed` backend, with SCREENDIR private to this agent. */
export function createScreenHost(program: string, paths: AgentPaths, clients?: PtyHost): MultiplexerHost {
  return new MultiplexerHost(new Screen(program, paths), clients);
}
