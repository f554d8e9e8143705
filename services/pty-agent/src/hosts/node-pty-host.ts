import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import * as pty from 'node-pty';
import type { PtyHost, PtyProcess, SessionSpec } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { unixTerminal } from './node-pty-private';
import { UNWATCHED, type PathWatch } from './path-watch';
import { PtyMasterProcess } from './pty-master-process';
import { writeToPty } from './pty-write';

/**
 * Makes `onExit` come after the last byte of output. Two things lost the tail here (3–15 KB of
 * `seq 1 60000`): the kernel hangs the master up as soon as the last slave fd closes, discarding
 * unread output, and node-pty force-destroys the tty socket 200 ms after exit. So the agent holds
 * its own slave fd open (the master then never sees the hangup), and when node-pty asks for the
 * destroy we wait until the tty has been quiet (`whenQuiet`), then close our slave fd and let the
 * destroy — and with it node-pty's exit event — proceed.
 */
function drainBeforeExit(term: pty.IPty, proc: PtyMasterProcess): void {
  const internals = unixTerminal(term);
  const socket = internals._socket;
  if (!socket || typeof socket.destroy !== 'function') return;
  let slaveFd: number | undefined;
  try {
    const ptsName = internals.ptsName;
    slaveFd = ptsName ? openSync(ptsName, fsConstants.O_RDWR | fsConstants.O_NOCTTY) : undefined;
  } catch {
    slaveFd = undefined; // still correct, only without the hangup protection
  }
  const releaseSlave = () => {
    if (slaveFd === undefined) return;
    try {
      closeSync(slaveFd);
    } catch {
      /* already closed */
    }
    slaveFd = undefined;
  };
  const destroyNow = socket.destroy.bind(socket);
  socket.destroy = (...args: unknown[]) => {
    if (!internals._boundClose) {
      releaseSlave();
      return destroyNow(...args);
    }
    proc.whenQuiet(Number.NEGATIVE_INFINITY, () => {
      releaseSlave();
      destroyNow(...args);
    });
    return socket;
  };
}

/** A program node-pty forked; output and exit are held until the first listener attaches. */
class NodePtyProcess extends PtyMasterProcess {
  constructor(private readonly term: pty.IPty) {
    super();
    // Spawned with encoding null: data arrives as Buffers of raw bytes.
    term.onData((data) => this.received(data as unknown as Uint8Array));
    term.onExit(({ exitCode, signal }) => {
      this.exited({ exitCode: signal ? null : exitCode, signal: signal ? signal : null });
    });
  }
  get pid(): number {
    return this.term.pid;
  }
  write(data: Uint8Array): void {
    writeToPty(this.term, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  resize(size: TerminalSize): void {
    this.term.resize(size.cols, size.rows);
  }
  kill(signal?: string): void {
    this.term.kill(signal);
  }
  protected stopReading(): void {
    this.term.pause();
  }
  protected startReading(): void {
    this.term.resume();
  }
}

/** The `native`/`direct` backend: the process runs straight under a node-pty PTY. */
export class NodePtyHost implements PtyHost {
  /** `watch` counts the sessions node-pty reads (`ptyws_pty_read_path{path="node_pty"}`). */
  constructor(private readonly watch: PathWatch = UNWATCHED) {}

  spawn(_sessionId: string, spec: SessionSpec): PtyProcess {
    const [file, ...args] = spec.argv;
    if (!file) throw new Error('argv is empty');
    const term = pty.spawn(file, args, {
      name: spec.env['TERM'] ?? 'xterm-256color',
      cols: spec.size.cols,
      rows: spec.size.rows,
      cwd: spec.cwd,
      env: spec.env,
      encoding: null,
    });
    const proc = new NodePtyProcess(term);
    drainBeforeExit(term, proc);
    this.watch.reading('node_pty', 1);
    proc.onExit(() => this.watch.reading('node_pty', -1));
    return proc;
  }
}
