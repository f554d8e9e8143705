import type { TerminalSize } from '@pty-ws/protocol';
import type {
  Clock,
  FrameLog,
  Keyframe,
  PtyProcess,
  RetentionPolicy,
  ScreenFormat,
  SessionScreen,
  TranscriptArchive,
} from '@pty-ws/ports';
import type { AgentMetrics, OutputHoldReason } from '@pty-ws/telemetry';
import { createTerminalMirror, type TerminalMirror } from '../mirror/terminal-mirror';
import { createArchiver, type ArchiverOptions, type TranscriptArchiver } from '../archive/transcript-archiver';
import { Keyframes } from './keyframes';
import type { Lifecycle } from './lifecycle';
import { endCutLog } from './log-cut';
import { OutputCoalescer } from './output-coalescer';
import { DEFAULT_GIVE_UP_MS, Sequencer } from './sequencer';

/** The output path's settings: the agent's, the same for every session (part of RuntimeOptions). */
export interface OutputSettings {
  keyframeIntervalMs: number;
  keyframeIntervalFrames: number;
  outputCoalesceMs: number;
  outputFrameBytes: number;
  /** PTYWS_MIRROR_THREAD: the headless terminal in the event loop (default) or the agent's mirror worker. */
  mirrorThread?: 'main' | 'worker';
  /** PTYWS_MIRROR_SLEEP_S in ms: an idle session's mirror keeps only a keyframe; absent or 0: never. */
  mirrorSleepMs?: number;
  log: FrameLog;
  retention: RetentionPolicy;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  metrics?: AgentMetrics;
  /** Where frames go before the log may evict them; without one the log is the only history. */
  archive?: TranscriptArchive;
  archiver?: Omit<ArchiverOptions, 'logger'>;
  /**
   * While the log cannot be written: how much output waits for it before the PTY is held
   * (PTYWS_LOG_OUTAGE_BUFFER_BYTES), and how long appends are retried before the session is
   * ended (PTYWS_LOG_OUTAGE_GIVE_UP_S). Defaults: 64 MiB, 120 s.
   */
  logOutage?: { bufferBytes: number; giveUpMs: number };
}

export interface SessionOutputOptions extends OutputSettings {
  sessionId: string;
  /** The PTY whose reading is paused while the mirror or the archive is far behind. */
  proc: Pick<PtyProcess, 'pause' | 'resume'>;
  /** The log's last sequence when the runtime starts. */
  lastSeq: number;
  size: TerminalSize;
  /** The session's lifecycle: cadence keyframes are made while it runs. */
  lifecycle: () => Lifecycle;
  /** The log refused this session's frames for good: the session must end. */
  onLogFailure: () => void;
  /** Entry timestamps, the keyframe cadence, trim pacing. */
  clock: Clock;
}

/**
 * One session's output path, PTY to log: the coalescer that merges PTY reads into frames, the
 * headless terminal that mirrors them for keyframes, the sequencer that makes each a log entry,
 * the keyframe cadence, retention applied as the log grows, and the transcript archive. The
 * runtime owns the lifecycle and membership and hands output and resizes here.
 */
export class SessionOutput {
  readonly sequencer: Sequencer;
  /** Copies the log into the transcript archive in chunks; undefined without an archive. */
  readonly archiver: TranscriptArchiver | undefined;
  private readonly screen: TerminalMirror;
  private readonly keyframes: Keyframes;
  private readonly coalescer: OutputCoalescer;
  /** What asked for the PTY's output to wait (the mirror or the archive far behind the stream, or every reader). */
  private readonly slowedBy = new Set<OutputHoldReason>();
  private lastTrimAt = 0;
  /** The PTY is being let go (kill): its last output is read even while the log is away. */
  private draining = false;
  private parseErrorLogged = false;

  constructor(private readonly opts: SessionOutputOptions) {
    const { sessionId } = opts;
    this.screen = createTerminalMirror({
      thread: opts.mirrorThread ?? 'main',
      ...(opts.mirrorSleepMs ? { sleepAfterMs: opts.mirrorSleepMs } : {}),
      cols: opts.size.cols,
      rows: opts.size.rows,
      // The mirror parses behind the stream; far behind (a `yes` flood), the PTY waits for it,
      // so the queue to it (memory) stays bounded. Output already read is never held.
      onBacklog: (behind) => this.slowDown('mirror', behind),
      // Counted, never logged: any program can print these (a DEL, `cat` of a binary).
      onMalformedInput: (count) => opts.metrics?.mirrorParseErrors('malformed', count),
      onParseError: (err) => {
        opts.metrics?.mirrorParseErrors('exception', 1);
        // Once per session: an emulator bug worth reporting, but output could repeat it at will.
        if (this.parseErrorLogged) return;
        this.parseErrorLogged = true;
        opts.logger.warn(
          { session_id: sessionId, err: err.message },
          'terminal mirror could not parse output: keyframes may miss part of it',
        );
      },
    });
    this.archiver = opts.archive ? createArchiver(sessionId, opts.archive, opts.log, opts) : undefined;
    if (this.archiver) this.archiver.onBacklog = (behind) => this.slowDown('archive', behind);
    this.sequencer = new Sequencer({
      sessionId,
      log: opts.log,
      lastSeq: opts.lastSeq,
      clock: opts.clock,
      ...(opts.logOutage ? { giveUpMs: opts.logOutage.giveUpMs, waitingBound: opts.logOutage.bufferBytes } : {}),
      onFailure: (err) => {
        // The log cannot take this session's frames any more: stop it rather than let it run on
        // with output nobody can see or replay.
        opts.logger.warn(
          { session_id: sessionId, err: err.message, last_seq: this.sequencer.lastSeq },
          'frame log append failed for good: closing the session',
        );
        opts.metrics?.frameLogCut();
        opts.onLogFailure();
      },
      // Past the bound the program waits, as on a slow terminal, until the log has taken half.
      onWaiting: (over) => {
        if (this.draining) return; // the hold was let go of for good (kill)
        opts.logger[over ? 'warn' : 'info'](
          { session_id: sessionId },
          over ? 'frame log behind: output held until it catches up' : 'frame log caught up: output flows again',
        );
        this.slowDown('log', over);
      },
      onWaitingBytes: (delta) => opts.metrics?.frameLogWaiting(delta),
      afterAppend: (entry) => {
        this.archiver?.push(entry);
        this.maybeTrim();
      },
      onRetry: (err) =>
        opts.logger.warn({ session_id: sessionId, err: err.message }, 'frame log append failed: retrying'),
    });
    // Before any output can arrive (a host may hand over held output as soon as onData is set).
    this.keyframes = new Keyframes({
      screen: this.screen,
      sequencer: this.sequencer,
      lastSeq: opts.lastSeq,
      intervalMs: opts.keyframeIntervalMs,
      intervalFrames: opts.keyframeIntervalFrames,
      lifecycle: opts.lifecycle,
      clock: opts.clock,
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    });
    this.coalescer = new OutputCoalescer(opts.outputCoalesceMs, opts.outputFrameBytes, (data) => this.emit(data));
  }

  /** Output read from the PTY. */
  push(data: Uint8Array): void {
    this.coalescer.push(data);
  }

  /** Sequences what the coalescer holds now (before a Resize, a resync, or `Closed`). */
  flush(): void {
    this.coalescer.flush();
  }

  private emit(data: Uint8Array): void {
    // Feed the mirror first, then sequence: a keyframe anchored at N always contains output N.
    this.screen.write(data);
    this.keyframes.outputLogged(this.sequencer.output('stdout', data));
  }

  /** The PTY took a new geometry: output already read is sequenced first, then the Resize frame. */
  resized(size: TerminalSize): void {
    // Output already read belongs to the old geometry: sequence it before the Resize frame.
    this.coalescer.flush();
    this.screen.resize(size.cols, size.rows);
    this.keyframes.screenChanged(
      this.sequencer.event('pty.session_frame', { kind: 'Resize', cols: size.cols, rows: size.rows }),
    );
  }

  /** A keyframe for one connection (join flush, request, role change, lag): not logged. */
  keyframe(): Promise<Keyframe> {
    return this.keyframes.onDemand();
  }

  /** The screen as text, with the sequence of the last entry it reflects (output read so far is sequenced first). */
  async readScreen(format: ScreenFormat): Promise<SessionScreen> {
    this.coalescer.flush();
    const seq = this.sequencer.lastSeq;
    return { ...(await this.screen.screen(format)), seq };
  }

  /** Logs a Keyframe now (after re-attaching to a managed session), so every client's screen resyncs. */
  resync(): void {
    this.coalescer.flush(); // the repaint may still sit in the coalescer
    this.keyframes.resync();
  }

  /** The configured windows, never past what the transcript archive already holds. */
  retention(): RetentionPolicy {
    return this.archiver ? this.archiver.guard(this.opts.retention) : this.opts.retention;
  }

  /**
   * The output path's part of the runtime's teardown, once nothing more will be sequenced: the
   * cadence stops, the log gets everything, the mirror is let go of. `archived` is the archive's
   * last chunk, kept apart because a slow archive must not hold up `Closed` (the log keeps what
   * the archive has not taken).
   */
  async close(): Promise<{ archived: Promise<void> | undefined }> {
    this.keyframes.dispose();
    await this.sequencer.flushed();
    const archived = this.archiver?.close();
    this.screen.dispose();
    // The session is no longer held by anything (ptyws_output_held_sessions); the PTY is left as it is.
    for (const reason of this.slowedBy) this.opts.metrics?.outputHeld(reason, -1);
    this.slowedBy.clear();
    return { archived };
  }

  /** The log was given up: what was sequenced after its end never reached it. */
  get logCut(): boolean {
    return this.sequencer.failed;
  }

  /**
   * The log was given up and the session ended: readers are told at once, and the log gets its
   * `Closed` once it takes appends again (log-cut.ts).
   */
  endCutLog(): void {
    const giveUpMs = this.opts.logOutage?.giveUpMs ?? DEFAULT_GIVE_UP_MS;
    const lastSeq = this.sequencer.lastSeq;
    void endCutLog({
      sessionId: this.opts.sessionId,
      log: this.opts.log,
      cut: {
        lastSeq,
        message: `the session's frame log could not be written for ${Math.round(giveUpMs / 1000)} s: the session was ended, and output after the log's last frame was lost`,
      },
      clock: this.opts.clock,
      logger: this.opts.logger,
    });
  }

  /** The PTY is let go of (kill): its last output is read whatever the log does, so the exit comes. */
  drain(): void {
    this.draining = true;
    this.slowDown('log', false);
  }

  /** Most readers of the session are behind, on every edge with readers (reader-pace.ts): the PTY waits for them. */
  readersBehind(on: boolean): void {
    this.slowDown('readers', on);
    this.archiver?.outputHeld(on);
  }

  /** Pauses reading the PTY while anything behind the stream is far behind, so memory stays bounded. */
  private slowDown(reason: OutputHoldReason, on: boolean): void {
    const before = this.slowedBy.size > 0;
    if (on === this.slowedBy.has(reason)) return;
    if (on) this.slowedBy.add(reason);
    else this.slowedBy.delete(reason);
    this.opts.metrics?.outputHeld(reason, on ? 1 : -1);
    const after = this.slowedBy.size > 0;
    if (after && !before) this.opts.proc.pause?.();
    else if (!after && before) this.opts.proc.resume?.();
  }

  /** Retention is applied as the log grows (at most 4×/s), so replay windows are exact, not janitor-late. */
  private maybeTrim(): void {
    const now = this.opts.clock.now();
    if (now - this.lastTrimAt < 250) return;
    this.lastTrimAt = now;
    void this.opts.log.trim(this.opts.sessionId, this.retention(), now).catch(() => undefined);
  }
}
