import type { HistoryBackfill, LoggedScreen, ManagedPtyHost, PtyExit, PtyHost, SessionSpec } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { planBackfill, type CapturedHistory } from './history-backfill';
import { ManagedProcess, type SessionEnder } from './managed-process';
import { NodePtyHost } from './node-pty-host';
import { firstRows } from './visible-text';
import type { ManagedBackend } from './session-host-capabilities';
import type { StatusFiles } from './status-files';

/** How the agent's client is started: creating the session attached, or attaching. */
export interface ClientCommand {
  argv: string[];
  env: Record<string, string>;
}

/** One multiplexer program (tmux, screen) as the host drives it. */
export interface Multiplexer extends SessionEnder {
  readonly backend: ManagedBackend;
  readonly files: StatusFiles;
  /** Creates the private directories and configuration (idempotent; before the first session). */
  prepare(): void;
  /** A client that creates the named session running the spec's program, attached from the start. */
  createCommand(name: string, spec: SessionSpec): ClientCommand;
  attachCommand(name: string): ClientCommand | Promise<ClientCommand>;
  /** The program's pid once the session exists, else undefined. */
  programPid(name: string): Promise<number | undefined>;
  /** Names of the sessions on this agent's private socket. */
  list(): Promise<string[]>;
  /** Lets a program that waits for the agent's client start (tmux); idempotent. */
  release?(name: string): Promise<void>;
  /** The session's history and screen (`rows` high) now; absent where they cannot be captured. */
  history?(name: string, rows: number): Promise<CapturedHistory | undefined>;
}

/** Multiplexer session names are pty-ws session ids; both programs choke on `.`, `:` and spaces. */
const SESSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const START_TIMEOUT_MS = 5000;
const START_POLL_MS = 15;
const CSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Rows of the client's first screen that locate it in the multiplexer's history. */
const DRAWN_ROWS = 4;
/** A screen with fewer rows counts as drawn once the client has been quiet this long. */
const DRAWN_QUIET_MS = 100;
const DRAWN_MAX_MS = 2000;
const DRAWN_POLL_MS = 15;

/** The first non-blank rows the client drew since it attached (its output is still held). */
async function firstDrawnRows(proc: ManagedProcess): Promise<string[]> {
  const started = Date.now();
  let text = '';
  let changedAt = started;
  for (;;) {
    const now = proc.earlyText();
    if (now !== text) [text, changedAt] = [now, Date.now()];
    const rows = firstRows(text, DRAWN_ROWS);
    const quiet = text !== '' && Date.now() - changedAt >= DRAWN_QUIET_MS;
    if (rows.length === DRAWN_ROWS || quiet || proc.exited || Date.now() - started >= DRAWN_MAX_MS) return rows;
    await new Promise((r) => setTimeout(r, DRAWN_POLL_MS));
  }
}

/**
 * A managed backend: the program runs in a multiplexer session named after the pty-ws session,
 * and the agent attaches a client to it on a pty of its own (started like a native session, so
 * the drain-before-exit guarantee holds for the client too). The session outlives the client, which is what lets a
 * restarted agent re-attach.
 */
export class MultiplexerHost implements ManagedPtyHost {
  private prepared = false;

  constructor(
    private readonly mux: Multiplexer,
    /** Starts the clients: SessionHosts passes its native host (the spawner), so they do not fork the agent. */
    private readonly clients: PtyHost = new NodePtyHost(),
  ) {}

  get backend(): ManagedBackend {
    return this.mux.backend;
  }

  async spawn(sessionId: string, spec: SessionSpec): Promise<ManagedProcess> {
    if (!SESSION_NAME.test(sessionId)) {
      throw new Error(`session id '${sessionId}' cannot name a ${this.backend} session (use A-Z a-z 0-9 _ -)`);
    }
    this.prepare();
    if ((await this.mux.list()).includes(sessionId)) {
      throw new Error(`a ${this.backend} session named ${sessionId} already exists`);
    }
    this.mux.files.remove(sessionId); // leftovers of an earlier session with this id
    this.mux.files.writeSize(sessionId, spec.size);
    const proc = await this.start(sessionId, spec, this.mux.createCommand(sessionId, spec), spec.size, true);
    await this.started(proc);
    await this.release(proc);
    return proc;
  }

  async reattach(
    sessionId: string,
    spec: SessionSpec,
    log?: { logged: LoggedScreen | undefined },
  ): Promise<{ proc: ManagedProcess; size: TerminalSize; backfill?: HistoryBackfill }> {
    this.prepare();
    // The size the previous agent last gave it, so attaching does not resize the program.
    const size = this.mux.files.readSize(sessionId) ?? spec.size;
    const proc = await this.start(sessionId, spec, await this.mux.attachCommand(sessionId), size);
    await this.started(proc);
    await this.release(proc); // the previous agent may have died before releasing it
    if (!log) return { proc, size };
    return { proc, size, backfill: await this.backfill(proc, size.rows, log.logged) };
  }

  /**
   * Puts what the multiplexer printed after the log's last screen before the client's output. The
   * history is captured once the client has drawn its first rows, which mark where its own output
   * begins (capturing first would miss what scrolls by before the client's first repaint: tmux
   * defers it while the new client's terminal set-up is being written, ~450 rows of a flood).
   */
  private async backfill(proc: ManagedProcess, rows: number, logged?: LoggedScreen): Promise<HistoryBackfill> {
    if (!this.mux.history) return { outcome: 'unsupported', lines: 0 };
    const drawn = await firstDrawnRows(proc);
    const captured = await this.mux.history(proc.name, rows);
    if (!captured) return { outcome: 'unsupported', lines: 0 };
    const { bytes, ...plan } = planBackfill(logged, captured, drawn);
    if (bytes) proc.prepend(bytes);
    return plan;
  }

  list(): Promise<string[]> {
    return this.mux.list();
  }

  async exitOf(sessionId: string): Promise<PtyExit | undefined> {
    return this.mux.files.readStatus(sessionId);
  }

  async discard(sessionId: string): Promise<void> {
    await this.mux.killSession(sessionId);
    this.mux.files.remove(sessionId);
  }

  private prepare(): void {
    if (this.prepared) return;
    this.mux.prepare();
    this.prepared = true;
  }

  private async start(
    name: string,
    spec: SessionSpec,
    cmd: ClientCommand,
    size: TerminalSize,
    /** The client created the session: the history holds nothing from before it. */
    created = false,
  ): Promise<ManagedProcess> {
    const client = await this.clients.spawn(name, {
      ...spec,
      argv: cmd.argv,
      env: cmd.env,
      size,
      backend: 'native',
      sessionClass: 'direct',
    });
    // tmux only: it scrolls rows past its client (screenful-recovery.ts).
    const history = this.mux.backend === 'tmux' ? this.mux.history?.bind(this.mux) : undefined;
    return new ManagedProcess(client, name, this.mux, this.mux.files, {
      size,
      ...(history ? { history: { history, created } } : {}),
    });
  }

  /** After the client's first full repaint, so nothing the program emits at start is dropped. */
  private async release(proc: ManagedProcess): Promise<void> {
    if (!this.mux.release) return;
    await proc.settled();
    await this.mux.release(proc.name);
    // The program itself may have a pid of its own once released (tmux's pane runs a wrapper,
    // which records it; release waited for that).
    proc.pid = this.mux.files.readPid(proc.name) ?? proc.pid;
  }

  /** Resolves once the multiplexer reports the program's pid; rejects with the client's complaint. */
  private async started(proc: ManagedProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const pid = await this.mux.programPid(proc.name);
      if (pid !== undefined) {
        proc.pid = pid;
        return;
      }
      if (proc.exited || Date.now() > deadline) {
        proc.kill();
        const why = proc.earlyText().replace(CSI, '').trim();
        throw new Error(`${this.backend} did not start the session${why ? `: ${why}` : ''}`);
      }
      await new Promise((r) => setTimeout(r, START_POLL_MS));
    }
  }
}
