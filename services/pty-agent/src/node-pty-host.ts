import * as pty from 'node-pty';
import type { PtyExit, PtyHost, PtyProcess, SessionSpec } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';

/** How long a drained-but-silent tty may stay open after exit before it is destroyed anyway. */
const DRAIN_SAFETY_MS = 5000;

interface TtySocketInternals {
  _socket?: { destroy: (...args: unknown[]) => unknown };
  _boundClose?: boolean;
}

/**
 * node-pty destroys the tty socket 200 ms after the child exits, even when output is still
 * queued in the kernel; on this machine that lost 3–10 KB of the last output. We defer that
 * destroy until the tty reports EIO (everything read) or a long safety timeout, so `onExit` —
 * which node-pty fires on socket close — comes after the last byte.
 */
function deferForcedDestroy(term: pty.IPty): void {
  const internals = term as unknown as TtySocketInternals;
  const socket = internals._socket;
  if (!socket || typeof socket.destroy !== 'function') return;
  const destroyNow = socket.destroy.bind(socket);
  socket.destroy = (...args: unknown[]) => {
    if (!internals._boundClose) return destroyNow(...args);
    setTimeout(() => destroyNow(...args), DRAIN_SAFETY_MS).unref();
    return socket;
  };
}

class NodePtyProcess implements PtyProcess {
  constructor(private readonly term: pty.IPty) {}
  get pid(): number {
    return this.term.pid;
  }
  onData(listener: (data: Uint8Array) => void): void {
    // Spawned with encoding null: data arrives as Buffers of raw bytes.
    this.term.onData((data) => listener(data as unknown as Uint8Array));
  }
  onExit(listener: (exit: PtyExit) => void): void {
    this.term.onExit(({ exitCode, signal }) =>
      listener({ exitCode: signal ? null : exitCode, signal: signal ? signal : null }),
    );
  }
  write(data: Uint8Array): void {
    this.term.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as string);
  }
  resize(size: TerminalSize): void {
    this.term.resize(size.cols, size.rows);
  }
  kill(signal?: string): void {
    this.term.kill(signal);
  }
}

/** The `native`/`direct` backend: the process runs straight under a node-pty PTY. */
export class NodePtyHost implements PtyHost {
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
    deferForcedDestroy(term);
    return new NodePtyProcess(term);
  }
}
