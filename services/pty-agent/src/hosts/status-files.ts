import { existsSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { PtyExit } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';

/** How often the watch is backed up by a plain check, for filesystems where inotify misses events. */
const POLL_MS = 1000;

/** `status=<code> signal=<number>`, either part possibly empty (tmux: pane_dead_status/_signal). */
export function parseStatus(text: string): PtyExit | undefined {
  const m = /status=(\d*)\s+signal=(\d*)/.exec(text);
  if (!m) return undefined;
  const signal = m[2] ? Number(m[2]) : null;
  const exitCode = m[1] && signal === null ? Number(m[1]) : null;
  return { exitCode, signal };
}

/**
 * The per-session files a multiplexer backend leaves in its run directory: the program's exit
 * status (written by a tmux hook or the screen wrapper, even while no agent is attached), the
 * program's pid (screen), the last size the agent gave it (for re-attaching at that size), and
 * the start gate with the program's environment (tmux).
 */
export class StatusFiles {
  private readonly waiting = new Map<string, (exit: PtyExit) => void>();
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;

  /** `onPoll` runs on each backup check while a session is watched (tmux nudges its server). */
  constructor(
    readonly dir: string,
    private readonly onPoll: () => void = () => {},
  ) {}

  statusPath(name: string): string {
    return path.join(this.dir, `${name}.status`);
  }

  pidPath(name: string): string {
    return path.join(this.dir, `${name}.pid`);
  }

  /** Created by the agent to let a program that waits for its client start (tmux). */
  gatePath(name: string): string {
    return path.join(this.dir, `${name}.go`);
  }

  openGate(name: string): void {
    writeFileSync(this.gatePath(name), '', { mode: 0o600 });
  }

  /** The program's environment as a script for its start gate to source (tmux). */
  envPath(name: string): string {
    return path.join(this.dir, `${name}.env`);
  }

  writeEnv(name: string, script: string): void {
    writeFileSync(this.envPath(name), script, { mode: 0o600 });
  }

  private sizePath(name: string): string {
    return path.join(this.dir, `${name}.size`);
  }

  readStatus(name: string): PtyExit | undefined {
    try {
      return parseStatus(readFileSync(this.statusPath(name), 'utf8'));
    } catch {
      return undefined;
    }
  }

  readPid(name: string): number | undefined {
    try {
      const pid = Number(readFileSync(this.pidPath(name), 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  writeSize(name: string, size: TerminalSize): void {
    try {
      writeFileSync(this.sizePath(name), `${size.cols} ${size.rows}\n`, { mode: 0o600 });
    } catch {
      /* only a hint for re-attaching */
    }
  }

  readSize(name: string): TerminalSize | undefined {
    try {
      const [cols, rows] = readFileSync(this.sizePath(name), 'utf8').trim().split(/\s+/).map(Number);
      return cols && rows && Number.isInteger(cols) && Number.isInteger(rows) ? { cols, rows } : undefined;
    } catch {
      return undefined;
    }
  }

  remove(name: string): void {
    const files = [
      this.statusPath(name),
      this.pidPath(name),
      this.sizePath(name),
      this.gatePath(name),
      this.envPath(name),
    ];
    for (const file of files) {
      rmSync(file, { force: true });
      rmSync(`${file}.tmp`, { force: true });
    }
  }

  /** Calls `onExit` once when the session's status file appears (at once if it is already there). */
  watch(name: string, onExit: (exit: PtyExit) => void): () => void {
    this.waiting.set(name, onExit);
    this.start();
    queueMicrotask(() => this.check(name));
    return () => this.unwatch(name);
  }

  private unwatch(name: string): void {
    this.waiting.delete(name);
    if (this.waiting.size === 0) this.stop();
  }

  private check(name: string): void {
    const onExit = this.waiting.get(name);
    if (!onExit || !existsSync(this.statusPath(name))) return;
    const exit = this.readStatus(name);
    if (!exit) return; // written in two steps (tmp + rename), so this is a foreign or broken file
    this.unwatch(name);
    onExit(exit);
  }

  private start(): void {
    if (this.watcher || this.poll) return;
    try {
      this.watcher = watch(this.dir, (_event, file) => {
        const f = typeof file === 'string' ? file : '';
        if (f.endsWith('.status')) this.check(f.slice(0, -'.status'.length));
      });
      this.watcher.on('error', () => undefined);
      this.watcher.unref();
    } catch {
      this.watcher = undefined; // the poll still finds the files
    }
    this.poll = setInterval(() => {
      for (const name of [...this.waiting.keys()]) this.check(name);
      this.onPoll();
    }, POLL_MS);
    this.poll.unref();
  }

  private stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }
}
