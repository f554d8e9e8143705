import type { TerminalSize } from '@pty-ws/protocol';
import type { SessionSpec } from './registry';

export interface PtyExit {
  exitCode: number | null;
  signal: number | null;
}

/** A running terminal process. Output is delivered in order; `onExit` fires after the last output. */
export interface PtyProcess {
  readonly pid: number;
  onData(listener: (data: Uint8Array) => void): void;
  onExit(listener: (exit: PtyExit) => void): void;
  write(data: Uint8Array): void;
  resize(size: TerminalSize): void;
  kill(signal?: string): void;
}

/** Starts terminal processes for one backend family (native node-pty, tmux, screen…). */
export interface PtyHost {
  spawn(sessionId: string, spec: SessionSpec): PtyProcess;
}
