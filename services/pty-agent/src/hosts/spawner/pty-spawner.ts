import { fork, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { systemClock, type Clock, type PtyExit } from '@pty-ws/ports';
import { builtScript } from '../../built-script';
import { findExecutable } from '../executables';
import { LatchedEvent } from '../held-events';
import type { SpawnRequest, SpawnerEvent } from './messages';

/** A program the spawner started: its pid, and its exit once it happens. */
export interface SpawnedProgram {
  pid: number;
  onExit(listener: (exit: PtyExit) => void): void;
}

/** A request not answered yet, or a program that has not exited. */
interface Outstanding {
  /** The spawner asked: only its death fails the request or orphans the program. */
  spawner: ChildProcess;
  pid?: number;
  started: { resolve: (pid: number) => void; reject: (err: Error) => void };
  exited: (exit: PtyExit) => void;
}

/** How often a program whose spawner died is checked for (its exit status is lost with the spawner). */
const ORPHAN_POLL_MS = 1000;

/**
 * The agent's side of spawner-main.ts: starts the spawner when first needed and routes its answers.
 * The spawner never keeps the agent alive: its channel is referenced only while a request or a
 * program is outstanding.
 */
export class PtySpawner {
  private child: ChildProcess | undefined;
  private nextId = 1;
  /** Requests not answered yet, and programs that have not exited: by request id. */
  private readonly open = new Map<number, Outstanding>();
  /** Spawners already given up on ('error' and 'exit' may both come). */
  private readonly gone = new WeakSet<ChildProcess>();

  constructor(
    private readonly script: string,
    private readonly setsid: string,
    private readonly stty: string,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The spawner, when its script is built and `setsid` (util-linux, with --ctty) and `stty` exist. */
  static find(clock: Clock = systemClock): PtySpawner | undefined {
    const found = PtySpawner.locate();
    return 'setsid' in found ? new PtySpawner(found.script, found.setsid, found.stty, clock) : undefined;
  }

  /** What the spawner needs, or what is missing of it (for the agent's warning). */
  static locate(): { script: string; setsid: string; stty: string } | { missing: string } {
    const script = builtScript('hosts/spawner/spawner-main.js');
    const setsid = findExecutable('setsid');
    const stty = findExecutable('stty');
    if (script && setsid && stty) return { script, setsid, stty };
    const missing = [
      script ? undefined : 'its script is not built (`npm run build`)',
      setsid ? undefined : '`setsid` is not on PATH (util-linux)',
      stty ? undefined : '`stty` is not on PATH (coreutils)',
    ];
    return { missing: missing.filter(Boolean).join(', ') };
  }

  spawn(req: Omit<SpawnRequest, 'type' | 'id'>): Promise<SpawnedProgram> {
    const child = this.running();
    const id = this.nextId++;
    const exit = new LatchedEvent<PtyExit>();
    return new Promise<SpawnedProgram>((resolve, reject) => {
      this.open.set(id, {
        spawner: child,
        started: { resolve: (pid) => resolve({ pid, onExit: (l) => exit.subscribe(l) }), reject },
        exited: (e) => exit.fire(e),
      });
      this.reference();
      child.send({ type: 'spawn', id, ...req } satisfies SpawnRequest, (err) => {
        if (err) this.settle(id, undefined, err);
      });
    });
  }

  private running(): ChildProcess {
    if (this.child && this.child.connected) return this.child;
    // Forked at the first native session, usually while the agent is still small: the one fork of
    // the agent this costs (and again only if the spawner dies).
    const child = fork(this.script, [this.setsid, this.stty], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--max-old-space-size=32'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    });
    child.on('message', (event: SpawnerEvent) => this.onEvent(event));
    child.once('exit', () => this.lost(child));
    // Could not be started, or a message could not be sent to it: it is of no more use.
    child.once('error', () => {
      child.kill('SIGKILL');
      this.lost(child);
    });
    child.unref();
    this.child = child;
    this.reference();
    return child;
  }

  private onEvent(event: SpawnerEvent): void {
    const entry = this.open.get(event.id);
    if (!entry) return;
    if (event.type === 'spawned') {
      entry.pid = event.pid;
      entry.started.resolve(event.pid);
    } else if (event.type === 'failed') {
      this.settle(event.id, undefined, new Error(event.message));
    } else {
      this.settle(event.id, { exitCode: event.signal ? null : event.code, signal: signalNumber(event.signal) });
    }
  }

  /** A request failed or a program exited: it no longer holds the spawner. */
  private settle(id: number, exit: PtyExit | undefined, err?: Error): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    if (err) entry.started.reject(err);
    if (exit) entry.exited(exit);
    this.reference();
  }

  /**
   * The spawner died (killed, out of memory): requests fail, and programs it started, whose exit
   * status went with it, are watched until they are gone. A later spawn starts a new spawner.
   */
  private lost(child: ChildProcess): void {
    if (this.gone.has(child)) return;
    this.gone.add(child);
    if (this.child === child) this.child = undefined;
    for (const [id, entry] of [...this.open]) {
      if (entry.spawner !== child) continue;
      if (entry.pid === undefined) this.settle(id, undefined, new Error('the pty spawner exited'));
      else watchOrphan(this.clock, entry.pid, () => this.settle(id, { exitCode: null, signal: null }));
    }
  }

  /** The channel keeps the agent alive only while something is outstanding. */
  private reference(): void {
    const channel = this.child?.channel as { ref?: () => void; unref?: () => void } | null | undefined;
    if (this.open.size > 0) channel?.ref?.();
    else channel?.unref?.();
  }
}

function watchOrphan(clock: Clock, pid: number, gone: () => void): void {
  const timer = clock.setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch {
      timer.cancel();
      gone();
    }
  }, ORPHAN_POLL_MS);
}

function signalNumber(name: string | null): number | null {
  if (!name) return null;
  return (osConstants.signals as Record<string, number>)[name] ?? null;
}
