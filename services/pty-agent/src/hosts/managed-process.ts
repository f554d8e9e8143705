import type { ManagedPtyProcess, PtyExit, PtyProcess } from '@pty-ws/ports';
import type { TerminalSize } from '@pty-ws/protocol';
import { HeldOutput, LatchedEvent } from './held-events';
import { ScreenfulRecovery, type HistorySource } from './screenful-recovery';
import { sessionOf, signalSession } from './session-signals';
import type { StatusFiles } from './status-files';
import { hasDrawn } from './visible-text';

/**
 * After the program exits, the multiplexer still repaints its last output through our client;
 * the client counts as caught up once it has been quiet this long.
 */
const REPAINT_QUIET_MS = 80;
/** Upper bound on waiting for that quiet (a program could leave something animating). */
const REPAINT_MAX_MS = 2000;
/** A freshly attached client has finished its full repaint after this much quiet. */
const SETTLE_QUIET_MS = 150;
const SETTLE_MAX_MS = 3000;
/** `Closed` for a killed session reports the hangup the multiplexer sends the program. */
const SIGHUP = 1;
/** Enough of the client's latest output to find the screen's last line in. */
const RECENT_CHARS = 16_384;

/** What a managed process needs from its multiplexer. */
export interface SessionEnder {
  killSession(name: string): Promise<void>;
  /**
   * The last non-blank line of the session's screen once its program has ended. The client's
   * repaint is complete when it has drawn that line: quiet alone can be a pause mid-repaint on a
   * busy machine, and muting then loses the tail.
   */
  finalLine?(name: string): Promise<string | undefined>;
}

type Ending = 'none' | 'program-exited' | 'killed' | 'detached';

/**
 * The agent's view of a program running in a multiplexer session: a node-pty client attached to
 * the session carries the I/O, and the program's exit comes from the status file, not from the
 * client. Once the program has ended, been killed or been detached from, the client is "muted":
 * the multiplexer's own teardown (clear screen, leave the alternate screen, "[exited]") never
 * reaches the log, so the last screen is the program's.
 */
export class ManagedProcess implements ManagedPtyProcess {
  /** Output before anyone listened is held (spawn resolves after the client started). */
  private readonly data = new HeldOutput<Uint8Array>();
  private readonly exit = new LatchedEvent<PtyExit>();
  private muted = false;
  private ending: Ending = 'none';
  private programExit: PtyExit | undefined;
  private clientGone = false;
  private lastDataAt = 0;
  /** The client's latest output, for the repaint check at the program's exit. */
  private recent = '';
  private readonly detachWaiters: Array<() => void> = [];
  /** The window's size, which a recovery draws the client's screen at. */
  private size: TerminalSize;
  private readonly stopWatching: () => void;
  /** Rows the multiplexer scrolled past the client, put back (screenful-recovery.ts). */
  private readonly screenfuls: ScreenfulRecovery | undefined;
  /** The terminal session the program runs in (its pane's or window's), once it is killed. */
  private session: number | undefined;
  pid = 0;

  constructor(
    private readonly client: PtyProcess,
    readonly name: string,
    private readonly ender: SessionEnder,
    private readonly files: StatusFiles,
    opts: { size?: TerminalSize; history?: HistorySource } = {},
  ) {
    this.size = opts.size ?? { cols: 80, rows: 24 };
    if (opts.history) {
      this.screenfuls = new ScreenfulRecovery(
        name,
        opts.history,
        () => this.size,
        (data) => this.data.emit(data),
      );
    }
    client.onData((data) => this.onClientData(data));
    client.onExit(() => this.onClientExit());
    this.stopWatching = files.watch(name, (exit) => void this.onProgramExit(exit));
  }

  /** Text the client printed so far (a multiplexer's start-up error, when it refused to start). */
  earlyText(): string {
    return Buffer.concat(this.data.pending).toString('utf8');
  }

  /**
   * Output that belongs before the client's (what the multiplexer printed while no agent was
   * attached): only before the runtime subscribes.
   */
  prepend(data: Uint8Array): void {
    this.data.prepend(data);
  }

  get exited(): boolean {
    return this.clientGone;
  }

  onData(listener: (data: Uint8Array) => void): void {
    this.data.subscribe(listener);
  }

  onExit(listener: (exit: PtyExit) => void): void {
    this.exit.subscribe(listener);
  }

  write(data: Uint8Array): void {
    if (this.ending === 'none' && !this.clientGone) this.client.write(data);
  }

  resize(size: TerminalSize): void {
    if (this.ending !== 'none' || this.clientGone) return;
    this.client.resize(size);
    this.size = size;
    this.files.writeSize(this.name, size);
  }

  /**
   * Ends the multiplexer session (DELETE, agent shutdown), then hangs up every process group of the
   * pane's or window's terminal session: ending a screen session hangs up only the window's wrapper,
   * which outlives it, so a program that never reads its terminal would keep running. The SIGKILL
   * that follows a kill after its grace (the runtime's) ends whatever survived the hangup.
   */
  kill(signal?: string): void {
    if (signal === 'SIGKILL' && this.ending === 'killed') this.signalProgram('SIGKILL');
    if (this.clientGone) return;
    if (this.ending !== 'none') {
      if (signal === 'SIGKILL') this.client.kill('SIGKILL');
      return;
    }
    this.ending = 'killed';
    this.muted = true;
    this.stopWatching();
    // Looked up while the program runs: its pid may be gone once the session has ended.
    this.session = this.pid > 0 ? sessionOf(this.pid) : undefined;
    void this.ender.killSession(this.name).finally(() => {
      this.signalProgram('SIGHUP');
      this.killClient();
    });
  }

  /**
   * Signals the program's terminal session. Where /proc cannot name it, the program alone gets the
   * hangup, but no SIGKILL: by then its pid may have ended and been reused.
   */
  private signalProgram(signal: NodeJS.Signals): void {
    if (this.session !== undefined) {
      signalSession(this.session, signal);
      return;
    }
    if (this.pid <= 0 || signal === 'SIGKILL') return;
    try {
      process.kill(this.pid, signal);
    } catch {
      /* already gone */
    }
  }

  detach(): Promise<void> {
    if (this.clientGone) return Promise.resolve();
    if (this.ending === 'none') {
      this.ending = 'detached';
      this.muted = true;
      this.stopWatching();
      this.killClient();
    }
    return new Promise((resolve) => this.detachWaiters.push(resolve));
  }

  settled(): Promise<void> {
    const started = Date.now();
    return new Promise((resolve) => {
      const check = () => {
        const now = Date.now();
        const quiet = this.lastDataAt > 0 && now - this.lastDataAt >= SETTLE_QUIET_MS;
        if (quiet || this.clientGone || now - started >= SETTLE_MAX_MS) resolve();
        else setTimeout(check, 25).unref();
      };
      check();
    });
  }

  private onClientData(data: Uint8Array): void {
    this.lastDataAt = Date.now();
    if (this.muted) return;
    this.recent = (this.recent + Buffer.from(data).toString('utf8')).slice(-RECENT_CHARS);
    if (this.screenfuls) this.screenfuls.push(data);
    else this.data.emit(data);
  }

  private async onProgramExit(exit: PtyExit): Promise<void> {
    if (this.ending !== 'none') return;
    this.ending = 'program-exited';
    this.programExit = exit;
    const started = Date.now();
    const finalLine = await this.ender.finalLine?.(this.name).catch(() => undefined);
    const drawn = () => finalLine === undefined || hasDrawn(this.recent, finalLine);
    while (
      (Date.now() - this.lastDataAt < REPAINT_QUIET_MS || !drawn()) &&
      Date.now() - started < REPAINT_MAX_MS &&
      !this.clientGone
    ) {
      await new Promise((r) => setTimeout(r, REPAINT_QUIET_MS / 2));
    }
    this.muted = true;
    await this.ender.killSession(this.name).catch(() => undefined);
    this.killClient();
  }

  private killClient(): void {
    try {
      this.client.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }

  private onClientExit(): void {
    // What the client printed last may still be held for a recovery: it comes before the exit.
    if (this.screenfuls) void this.screenfuls.idle().then(() => this.clientExited());
    else this.clientExited();
  }

  private clientExited(): void {
    this.clientGone = true;
    this.stopWatching();
    if (this.ending === 'detached') {
      for (const w of this.detachWaiters.splice(0)) w();
      return;
    }
    let exit: PtyExit;
    if (this.ending === 'program-exited' && this.programExit) exit = this.programExit;
    else if (this.ending === 'killed') exit = { exitCode: null, signal: SIGHUP };
    else {
      // The client went away on its own (multiplexer killed from outside, or it crashed): the
      // status file says how the program ended if it did; either way the session is over.
      exit = this.files.readStatus(this.name) ?? { exitCode: null, signal: null };
      void this.ender.killSession(this.name).catch(() => undefined);
    }
    this.files.remove(this.name);
    this.exit.fire(exit);
    for (const w of this.detachWaiters.splice(0)) w();
  }
}
