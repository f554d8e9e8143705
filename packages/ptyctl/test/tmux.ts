/** A private tmux server (own socket, own config) to drive `ptyctl attach` like a person would. */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@pty-ws/testkit';

export class Tmux {
  readonly socket = `ptyctl-test-${randomBytes(6).toString('hex')}`;
  readonly dir = mkdtempSync(join(tmpdir(), 'ptyctl-tmux-'));
  private readonly conf = join(this.dir, 'tmux.conf');

  constructor() {
    // No status bar (the pane is the whole window), keep dead panes to read their exit status.
    writeFileSync(this.conf, 'set -g status off\nset -g remain-on-exit on\nset -g history-limit 2000\n');
  }

  run(...args: string[]): string {
    const res = spawnSync('tmux', ['-L', this.socket, '-f', this.conf, ...args], { encoding: 'utf8', timeout: 10_000 });
    if (res.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${res.stderr}`);
    return res.stdout;
  }

  /** A detached session of cols×rows running `command` (a shell command line) with `env`. */
  start(name: string, cols: number, rows: number, env: Record<string, string>, command: string): void {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    this.run('new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), ...envArgs, command);
  }

  /** The visible pane, wrapped lines joined, trailing blanks cut. */
  lines(target: string): string[] {
    return this.run('capture-pane', '-p', '-J', '-t', target)
      .split('\n')
      .map((l) => l.trimEnd());
  }

  async waitForLine(target: string, line: string, timeoutMs = 10_000): Promise<void> {
    await waitUntil(
      () => this.lines(target).includes(line),
      timeoutMs,
      `pane ${target} to show a line "${line}"`,
      50,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n--- pane ---\n${this.lines(target).join('\n')}`);
    });
  }

  type(target: string, text: string): void {
    this.run('send-keys', '-t', target, '-l', text);
    this.run('send-keys', '-t', target, 'Enter');
  }

  keys(target: string, ...keys: string[]): void {
    this.run('send-keys', '-t', target, ...keys);
  }

  /**
   * Resolves with the exit code a pane command recorded in its log as `ptyctl-exit=N` (see
   * `logged`). tmux's own #{pane_dead_status} is not used: tmux 3.3 sometimes leaves an exited
   * pane process unreaped (a zombie) until some other child exits, so the status never comes.
   */
  async waitForExit(name: string, timeoutMs = 10_000): Promise<number> {
    const code = await waitUntil(
      () => /ptyctl-exit=(\d+)/.exec(this.log(`${name}.log`))?.[1],
      timeoutMs,
      `the process in pane ${name} to exit`,
      50,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}\n--- pane ---\n${this.lines(name).join('\n')}\n--- log ---\n${this.log(`${name}.log`)}`,
      );
    });
    return Number(code);
  }

  /** `command` with its stderr and then its exit code appended to `<name>.log`. */
  logged(name: string, command: string): string {
    const log = sh(this.logPath(`${name}.log`));
    return `${command} 2>>${log}; echo "ptyctl-exit=$?" >>${log}`;
  }

  log(name: string): string {
    try {
      return readFileSync(join(this.dir, name), 'utf8');
    } catch {
      return '';
    }
  }

  logPath(name: string): string {
    return join(this.dir, name);
  }

  /** Ends the private server and everything in it; never touches another tmux server. */
  destroy(): void {
    const socketPath = spawnSync('tmux', ['-L', this.socket, 'display-message', '-p', '#{socket_path}'], {
      encoding: 'utf8',
      timeout: 5_000,
    }).stdout.trim();
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { timeout: 5_000 });
    // tmux 3.3 leaves the socket file behind after kill-server.
    if (socketPath.endsWith(this.socket)) rmSync(socketPath, { force: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Single-quotes a word for the shell tmux runs the pane command with. */
export function sh(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
