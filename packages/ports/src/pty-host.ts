import type { SessionBackend, TerminalSize } from '@pty-ws/protocol';
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
  /** Stops / restarts reading its output (the program blocks on a full PTY meanwhile); optional. */
  pause?(): void;
  resume?(): void;
  /**
   * How many clients read its output now (the session's members); optional. A process may read its
   * tty faster than many readers can take (SpawnedPtyProcess: the stream relay is for one reader).
   */
  readers?(count: number): void;
}

/**
 * Starts terminal processes for one backend family (native node-pty, tmux, screen…). Multiplexer
 * backends resolve asynchronously: the session must exist before the process counts as started.
 */
export interface PtyHost {
  spawn(sessionId: string, spec: SessionSpec): PtyProcess | Promise<PtyProcess>;
}

/**
 * A process whose program lives in a terminal multiplexer session: the agent only holds a client
 * attached to it, so it can let go (agent restart) and attach again later.
 */
export interface ManagedPtyProcess extends PtyProcess {
  /** Disconnects the agent's client without ending the program; `onExit` never fires afterwards. */
  detach(): Promise<void>;
  /** Resolves once the client's output has gone quiet (after attaching: the repaint is complete). */
  settled(): Promise<void>;
}

/** The text of the screen a session's frame log ends on (its last keyframe and the Output after it). */
export interface LoggedScreen {
  cols: number;
  rows: number;
  /** Visible rows, trailing blanks removed. */
  lines: string[];
  cursorY: number;
}

/**
 * What a re-attach recovered of the output printed while no agent was attached: `appended` lines
 * from the multiplexer's history; `nothing-missed` (the client's repaint shows all of it);
 * `truncated` (more was printed than the history holds: the rest were appended after a notice);
 * `ambiguous` (the log's last screen occurs more than once in the history, repeated output: the
 * latest occurrence was taken, so lines may be missing); `unplaced` (the log's last screen is not
 * in the history: nothing appended, a notice says so); `full-screen` (the program is on its
 * alternate screen, which has no history); `unsupported` (the history could not be read).
 */
export interface HistoryBackfill {
  outcome: 'appended' | 'nothing-missed' | 'truncated' | 'ambiguous' | 'unplaced' | 'full-screen' | 'unsupported';
  lines: number;
}

/** A multiplexer backend (`tmux`, `screen`): sessions named after the pty-ws session id. */
export interface ManagedPtyHost extends PtyHost {
  readonly backend: SessionBackend;
  spawn(sessionId: string, spec: SessionSpec): Promise<ManagedPtyProcess>;
  /** Session ids that have a live multiplexer session on this agent's private socket. */
  list(): Promise<string[]>;
  /**
   * Attaches a fresh client to the existing multiplexer session of `sessionId`. With `log`, the
   * process's output starts with what the multiplexer printed after the screen the session's log
   * ends on (`logged`; undefined: the log has no output yet) while no client was attached, from
   * its history, before the client's own output.
   */
  reattach(
    sessionId: string,
    spec: SessionSpec,
    log?: { logged: LoggedScreen | undefined },
  ): Promise<{ proc: ManagedPtyProcess; size: TerminalSize; backfill?: HistoryBackfill }>;
  /** The program's exit if it ended while no client was attached (a status file left behind). */
  exitOf(sessionId: string): Promise<PtyExit | undefined>;
  /** Ends the multiplexer session (if any) and forgets its files. */
  discard(sessionId: string): Promise<void>;
}

export function isManagedPtyProcess(proc: PtyProcess): proc is ManagedPtyProcess {
  return typeof (proc as Partial<ManagedPtyProcess>).detach === 'function';
}
