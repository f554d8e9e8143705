import { existsSync } from 'node:fs';
import type { PtyHost, SessionSpec } from '@pty-ws/ports';
import { ensurePrivateDir, writeFileAtomic, type AgentPaths } from '../agent-paths';
import type { CapturedHistory } from './history-backfill';
import type { ClientCommand, Multiplexer } from './multiplexer-host';
import { MultiplexerHost } from './multiplexer-host';
import { runCommand, shellQuote } from './run-command';
import { StatusFiles } from './status-files';

/** tmux's own terminal description when installed (ncurses-term), else the older screen one. */
function innerTerm(): string {
  const dirs = ['/usr/share/terminfo/t', '/lib/terminfo/t', '/etc/terminfo/t'];
  return dirs.some((d) => existsSync(`${d}/tmux-256color`)) ? 'tmux-256color' : 'screen-256color';
}

/** Rows of output a pane keeps above its screen: how far back a re-attaching agent can recover. */
export const TMUX_HISTORY_LINES = 10_000;

/**
 * The private server's configuration. The multiplexer must be invisible: the client's screen is
 * the program's screen, every key goes to the program, and nothing tmux draws of its own.
 */
export function tmuxConfig(runDir: string): string {
  const status = (suffix: string) => `${runDir}/#{session_name}.status${suffix}`;
  // pane-died runs in the server even with no agent attached, so a restarted agent still learns
  // the exit status; tmp + mv so the agent never reads half a file.
  const record =
    `printf \\"status=%s signal=%s\\" \\"#{pane_dead_status}\\" \\"#{pane_dead_signal}\\" > ${status('.tmp')}` +
    ` && mv -f ${status('.tmp')} ${status('')}`;
  return [
    '# Written by the pty-ws agent at start; applied to its private tmux server (tmux -S).',
    // No status line, no prefix key (every key reaches the program), no titles.
    'set -g status off',
    'set -g prefix None',
    'set -g prefix2 None',
    'unbind-key -a -T prefix',
    'set -g set-titles off',
    'set -g escape-time 0',
    // How far back a restarted agent can append what it missed (history-backfill.ts).
    `set -g history-limit ${TMUX_HISTORY_LINES}`,
    `set -g default-terminal ${innerTerm()}`,
    // For the pane-died hook's run-shell; programs are started without a shell (see createCommand).
    'set -g default-shell /bin/sh',
    // Sessions outlive the agent's client (restart) and end with their program.
    'set -g destroy-unattached off',
    'set -g exit-unattached off',
    'set -g exit-empty on',
    // Keep the dead pane so its exit status can be read, and draw nothing over it.
    'set -g remain-on-exit on',
    "set -g remain-on-exit-format ''",
    'setw -g aggressive-resize on',
    'set -g window-size latest',
    // Shell-integration marks (OSC 133) reach the agent's client wrapped in DCS passthrough.
    'set -g allow-passthrough on',
    `set-hook -g pane-died "run-shell -b '${record}'"`,
    '',
  ].join('\n');
}

/**
 * Panes run this wrapper, not the program itself. tmux 3.3a closes a pane's pty as soon as the
 * pane's process exits and nothing is readable at that instant; output the program wrote last
 * can still be on its way through the kernel then (its flip buffer), and is lost — the tail of
 * a burst that ends the program, in about one run in ten of `seq 1 20000` on a busy machine.
 * So the wrapper outlives the program: it sets the pane title to a mark of its own and exits
 * only once tmux reports that title, which tmux can only have parsed after everything the
 * program wrote before it. Its exit status is the program's as a shell sees it (128+N after
 * signal N, as with screen).
 *
 * Before that, it waits for the agent's start gate (tmux drops passthrough output, such as the
 * shell integration's first prompt marks, for a client still waiting for its first redraw) and
 * sources the program's environment. Usage: tmux-run.sh <gate> <env file> <pid file> <tmux>
 * <socket> argv...
 */
export const TMUX_WRAPPER = `#!/bin/sh
# Written by the pty-ws agent.
gate=$1 envf=$2 pidf=$3 tmux=$4 sock=$5
shift 5
while [ ! -e "$gate" ]; do sleep 0.02; done
. "$envf" && rm -f "$envf"
# Handlers, not ignores: handlers reset on exec, so the program still gets ^C, while this shell
# survives it. A hangup (the session is being killed) ends this shell too: nothing to wait for.
trap : INT QUIT TERM
sh -c 'printf %s "$$" > "$0.tmp" && mv -f "$0.tmp" "$0"; exec "$@"' "$pidf" "$@"
s=$?
# CAN first: it ends any escape sequence the program left unfinished, so the title is parsed.
mark="pty-ws-drained-$$"
printf '\\030\\033]2;%s\\033\\\\' "$mark"
n=0
while [ "$n" -lt 300 ]; do
  title=$("$tmux" -S "$sock" display-message -p -t "$TMUX_PANE" '#{pane_title}' 2>/dev/null) || break
  [ "$title" = "$mark" ] && break
  sleep 0.01
  n=$((n + 1))
done
exit "$s"
`;

/** How long release waits for the wrapper to start the program and record its pid. */
const PID_WAIT_MS = 2000;
const PID_POLL_MS = 10;

/** Variables tmux sets itself inside the pane (TERM is the inner terminal, not the client's). */
const TMUX_OWNED_ENV = new Set(['TERM', 'TMUX', 'TMUX_PANE']);

class Tmux implements Multiplexer {
  readonly backend = 'tmux' as const;
  readonly files: StatusFiles;

  constructor(
    private readonly program: string,
    private readonly paths: AgentPaths,
  ) {
    this.files = new StatusFiles(paths.tmuxRun, () => void this.reapDeadPanes());
  }

  /**
   * tmux before 3.5, built with utempter (Debian's 3.3a is), can lose a pane's SIGCHLD: the pane
   * then reads dead with no status and pane-died never fires. A SIGCHLD sent to the server makes
   * it reap the child, after which the hook runs as usual.
   */
  private async reapDeadPanes(): Promise<void> {
    const out = await this.tmux([
      'list-panes',
      '-a',
      '-F',
      '#{pid} #{pane_dead} #{pane_dead_status}#{pane_dead_signal}',
    ]);
    if (out.code !== 0) return;
    for (const line of out.stdout.split('\n')) {
      const [pid, dead, status] = line.split(' ');
      if (dead !== '1' || status || !pid) continue;
      try {
        process.kill(Number(pid), 'SIGCHLD');
      } catch {
        /* the server is gone */
      }
      return;
    }
  }

  prepare(): void {
    ensurePrivateDir(this.paths.root);
    ensurePrivateDir(this.paths.tmuxRun);
    writeFileAtomic(this.paths.tmuxConf, tmuxConfig(this.paths.tmuxRun));
    writeFileAtomic(this.paths.tmuxWrapper, TMUX_WRAPPER, 0o700);
  }

  /** The client's own environment: only what it needs to draw (the server inherits it). */
  private clientEnv(spec?: SessionSpec): Record<string, string> {
    const env: Record<string, string> = { TERM: spec?.env['TERM'] ?? 'xterm-256color' };
    const path = spec?.env['PATH'] ?? process.env['PATH'];
    if (path) env['PATH'] = path;
    return env;
  }

  private base(): string[] {
    // -u: UTF-8 regardless of the (minimal) locale of the client.
    return ['-S', this.paths.tmuxSocket, '-f', this.paths.tmuxConf, '-u'];
  }

  createCommand(name: string, spec: SessionSpec): ClientCommand {
    // The environment goes through a private file, not `-e` arguments: the client lives as long
    // as the session, and its command line is readable by every local user.
    const env = Object.entries(spec.env).filter(([k]) => !TMUX_OWNED_ENV.has(k));
    this.files.writeEnv(name, env.map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join(''));
    // Several arguments: tmux runs them without a shell.
    const argv = [
      '/bin/sh',
      this.paths.tmuxWrapper,
      this.files.gatePath(name),
      this.files.envPath(name),
      this.files.pidPath(name),
      this.program,
      this.paths.tmuxSocket,
      ...spec.argv,
    ];
    return {
      argv: [
        this.program,
        ...this.base(),
        // The server may predate this agent (restart): re-apply the current configuration.
        'source-file',
        this.paths.tmuxConf,
        ';',
        'new-session',
        '-s',
        name,
        '-c',
        spec.cwd,
        '--',
        ...argv,
      ],
      env: this.clientEnv(spec),
    };
  }

  attachCommand(name: string): ClientCommand {
    return { argv: [this.program, ...this.base(), 'attach-session', '-t', `=${name}`], env: this.clientEnv() };
  }

  /** The pane's history and screen now, with the history's size (one command list: consistent). */
  async history(name: string): Promise<CapturedHistory | undefined> {
    const pane = `=${name}:`;
    const out = await this.tmux([
      ...['display-message', '-p', '-t', pane, '#{history_size} #{history_limit} #{alternate_on}', ';'],
      ...['capture-pane', '-p', '-e', '-S', '-', '-E', '-', '-t', pane],
    ]);
    if (out.code !== 0) return undefined;
    const lines = out.stdout.split('\n');
    const [size, limit, alternate] = (lines.shift() ?? '').split(' ').map(Number);
    if (lines[lines.length - 1] === '') lines.pop();
    if (size === undefined || limit === undefined || !Number.isInteger(size) || size > lines.length) return undefined;
    // tmux drops a tenth of the history once it is full, so a full history holds 90-100 % of it.
    return { lines, screenTop: size, limit, full: size >= limit * 0.9, alternate: alternate === 1 };
  }

  private async tmux(args: string[]): Promise<{ code: number | null; stdout: string }> {
    return runCommand(this.program, ['-S', this.paths.tmuxSocket, ...args], this.clientEnv());
  }

  async release(name: string): Promise<void> {
    // A re-attached session's gate is open already: its program runs (and a session an earlier
    // agent version started has no pid file to wait for).
    if (existsSync(this.files.gatePath(name))) return;
    this.files.openGate(name);
    // The wrapper records the program's pid once it starts it; until then the pane's pid is the
    // wrapper's.
    const deadline = Date.now() + PID_WAIT_MS;
    while (this.files.readPid(name) === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, PID_POLL_MS));
    }
  }

  /** The program's pid (its wrapper's before the gate opens), while the session exists. */
  async programPid(name: string): Promise<number | undefined> {
    const out = await this.tmux(['display-message', '-p', '-t', `=${name}:`, '#{pane_pid}']);
    const pid = Number(out.stdout.trim());
    if (out.code !== 0 || !Number.isInteger(pid) || pid <= 0) return undefined;
    return this.files.readPid(name) ?? pid;
  }

  async list(): Promise<string[]> {
    if (!existsSync(this.paths.tmuxSocket)) return [];
    const out = await this.tmux(['list-sessions', '-F', '#{session_name}']);
    return out.code === 0 ? out.stdout.split('\n').filter((l) => l.length > 0) : [];
  }

  async killSession(name: string): Promise<void> {
    await this.tmux(['kill-session', '-t', `=${name}`]);
  }

  /** The dead pane keeps the program's last screen (remain-on-exit; complete: see TMUX_WRAPPER). */
  async finalLine(name: string): Promise<string | undefined> {
    const out = await this.tmux(['capture-pane', '-p', '-t', `=${name}:`]);
    if (out.code !== 0) return undefined;
    return out.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .pop();
  }
}

/** The `tmux`/`managed` backend on the agent's private socket. */
export function createTmuxHost(program: string, paths: AgentPaths, clients?: PtyHost): MultiplexerHost {
  return new MultiplexerHost(new Tmux(program, paths), clients);
}
