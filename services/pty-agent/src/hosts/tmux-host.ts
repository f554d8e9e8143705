import { existsSync } from 'node:fs';
import type { SessionSpec } from '@pty-ws/ports';
import { ensurePrivateDir, writeFileAtomic, type AgentPaths } from '../agent-paths';
import type { ClientCommand, Multiplexer } from './multiplexer-host';
import { MultiplexerHost } from './multiplexer-host';
import { runCommand, shellQuote } from './run-command';
import { StatusFiles } from './status-files';

/** tmux's own terminal description when installed (ncurses-term), else the older screen one. */
function innerTerm(): string {
  const dirs = ['/usr/share/terminfo/t', '/lib/terminfo/t', '/etc/terminfo/t'];
  return dirs.some((d) => existsSync(`${d}/tmux-256color`)) ? 'tmux-256color' : 'screen-256color';
}

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
    // The program starts only once the agent's client is attached and drawn (release creates
    // the gate file): tmux drops passthrough output (the shell integration's first prompt marks)
    // for a client still waiting for its first redraw. A file rather than `tmux wait-for`: nothing
    // in the pane talks to the server, and opening the gate again on re-attach is harmless.
    // Several arguments: tmux runs them without a shell.
    const gate = 'while [ ! -e "$0" ]; do sleep 0.02; done; . "$1" && rm -f "$1"; shift; exec "$@"';
    const argv = ['/bin/sh', '-c', gate, this.files.gatePath(name), this.files.envPath(name), ...spec.argv];
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

  private async tmux(args: string[]): Promise<{ code: number | null; stdout: string }> {
    return runCommand(this.program, ['-S', this.paths.tmuxSocket, ...args], this.clientEnv());
  }

  async release(name: string): Promise<void> {
    // Before the program may start: tmux 3.3a closes a pane's pty as soon as its program exits,
    // dropping output it has not read yet (the tail of a burst that ends the program, lost in most
    // runs of `seq 1 20000`), unless the pane is piped; then it waits until the pty is drained.
    // The pipe only reads into /dev/null. -o: a re-attach keeps the pipe already there.
    await this.tmux(['pipe-pane', '-o', '-t', `=${name}:`, 'exec cat >/dev/null']);
    this.files.openGate(name);
  }

  async programPid(name: string): Promise<number | undefined> {
    const out = await this.tmux(['display-message', '-p', '-t', `=${name}:`, '#{pane_pid}']);
    const pid = Number(out.stdout.trim());
    return out.code === 0 && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  async list(): Promise<string[]> {
    if (!existsSync(this.paths.tmuxSocket)) return [];
    const out = await this.tmux(['list-sessions', '-F', '#{session_name}']);
    return out.code === 0 ? out.stdout.split('\n').filter((l) => l.length > 0) : [];
  }

  async killSession(name: string): Promise<void> {
    await this.tmux(['kill-session', '-t', `=${name}`]);
  }

  /** The dead pane keeps the program's last screen (remain-on-exit; complete: see release). */
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
export function createTmuxHost(program: string, paths: AgentPaths): MultiplexerHost {
  return new MultiplexerHost(new Tmux(program, paths));
}
