import {
  RECENT_BYTES,
  RECENT_FRAMES,
  REPLAY_BATCH,
  isClosedEntry,
  REPLAY_STALL_MS,
  systemClock,
  type Clock,
  type Disposable,
  type FrameLog,
  type LogCut,
  type LogEntry,
  type Unsubscribe,
} from '@pty-ws/ports';
import type { EdgeMetrics } from '@pty-ws/telemetry';
import type { Logger } from '../logger';
import { moveFeed, type Conn } from './connection';
import { EchoLatency } from './echo-latency';
import { wants, writeFrame } from './frame-send';
import { fillGap, type GapFeed } from './gap-fill';
import { LiveBatch } from './live-batch';
import { OutputFlow, usable } from './output-flow';
import { RecentFrames } from './recent-frames';
import { serializeEntry, type SerializedFrame } from './serialized-frame';

export interface HubOptions {
  log: FrameLog;
  logger: Logger;
  /** Every time the hub and its output flow read or wait for; the system clock when omitted. */
  clock?: Clock;
  /** Socket backlog past which, held for SLOW_GRACE_MS, a connection is skipped forward. */
  slowConsumerBytes: number;
  /** Socket backlog past which it is skipped at once: below uWS's maxBackpressure, where it drops frames. */
  hardBacklogBytes: number;
  onLagged: (conn: Conn) => void;
  /**
   * A lagged connection's socket has drained: resume it (PTY_OUTPUT_LAGGED, Keyframe, catch-up).
   * uWS's drain event does that too; this is the hub's own check, so a lag never rests on one
   * event (the cluster fan-out bench left some observers lagged for good).
   */
  onDrained?: (conn: Conn) => void;
  /** Every entry the hub delivered, once, with its session: what else must react to the feed. */
  onEntry?: (entry: LogEntry, sessionId: string) => void;
  /** The session's owner gave its log up (LogCut): its connections here must be ended. */
  onCut?: (cut: LogCut, sessionId: string) => void;
  /**
   * Every reader of the session on this edge is behind (true), or one keeps up again (false):
   * the owner holds the PTY's output meanwhile (output-flow/), and may answer whether it does
   * (SessionControl.pace). Without it, readers are only skipped.
   */
  onPace?: (sessionId: string, behind: boolean) => Promise<boolean> | void;
  /**
   * A connection that was catching up when the session's `Closed` was delivered has now been
   * sent it too (closedSeq): its goodbye is due (after an Error when the `Closed` has reason
   * `error`: goodbyeAtClose). Those live at the close get theirs at once.
   */
  onClosedReached?: (conn: Conn) => void;
  /**
   * A catch-up or replay could not read the log (it did not answer in time): the connection
   * cannot be brought up to date here and must be ended with an Error, never left waiting.
   */
  onReadFailed?: (conn: Conn, error: unknown) => void;
  metrics?: EdgeMetrics;
}

/**
 * One session's fan-out on this edge: subscribes once to the frame log, serializes each entry
 * once per format, and sends it to every live connection that wants it.
 * A connection is either live (caught up to `head`: fed each entry as it is delivered) or catching
 * up from the hot window / the log by direct sends; it goes live in the same tick its last
 * catch-up send leaves, so no frame is missed or doubled (every frame reaches a socket through
 * its own `send`, in program order).
 *
 * Not uWS topics: each connection has its own position in the log (catch-up, lag, its own
 * frames in between), and each frame is serialized once per format here, not by uWS per socket.
 * (Topics were first dropped for uWS's direct path for large messages, which this uWS build gets
 * wrong: every message now goes through `sendMessage`, ARCHITECTURE "Decisions".)
 */
export class SessionHub implements Disposable {
  head: number;
  private readonly recent = new RecentFrames({ frames: RECENT_FRAMES, bytes: RECENT_BYTES });
  readonly conns = new Set<Conn>();
  /** When output is held, who is skipped forward, at what pace direct sends go (output-flow/). */
  readonly flow: OutputFlow;
  private readonly clock: Clock;
  private readonly echo: EchoLatency | undefined;
  private readonly pending = new Set<Conn>();
  private readonly unsubscribe: Unsubscribe;
  private readonly catchingUp = new Set<Conn>();
  /** Counters for the sessions API: how often replay had to leave the hot window. */
  hotMisses = 0;
  /** Sequence of the session's `Closed` once this hub delivered it: nothing follows it. */
  closedSeq: number | undefined;
  /** The session's frame log cut was logged on this edge (log-cut-close.ts): once at warn. */
  cutLogged = false;
  /** Entries held while a gap in the feed is filled from the log, so order is never broken. */
  private backlog: LogEntry[] | null = null;
  /** Delivered entries not yet written to the live connections. */
  private readonly live: LiveBatch;
  /**
   * Writes what was delivered and not yet written (a no-op when nothing is waiting); also each
   * connection's `flushFeed` while the hub holds it.
   */
  readonly flushNow: () => void;
  /** The hub's feed as a gap fill moves it. */
  private readonly gapFeed: GapFeed;

  constructor(
    readonly sessionId: string,
    startSeq: number,
    private readonly opts: HubOptions,
  ) {
    this.head = startSeq;
    this.clock = opts.clock ?? systemClock;
    this.echo = opts.metrics && new EchoLatency(this.clock, opts.metrics);
    this.flow = new OutputFlow({
      sessionId,
      clock: this.clock,
      conns: this.conns,
      slowConsumerBytes: opts.slowConsumerBytes,
      hardBacklogBytes: opts.hardBacklogBytes,
      metrics: opts.metrics,
      onLagged: opts.onLagged,
      onDrained: opts.onDrained,
      onPace: opts.onPace,
      pass: (entry) => this.sequence(entry),
    });
    this.live = new LiveBatch(this.conns, this.flow, opts.metrics, this.echo);
    this.flushNow = this.live.flushNow;
    this.gapFeed = {
      sessionId,
      log: opts.log,
      clock: this.clock,
      logger: opts.logger,
      head: () => this.head,
      deliver: (e) => this.deliver(e),
      skipTo: (seq) => (this.head = seq),
    };
    const onCut = opts.onCut;
    this.unsubscribe = opts.log.subscribe(
      sessionId,
      (e) => this.flow.admit(e),
      onCut && ((cut) => onCut(cut, sessionId)),
    );
  }

  dispose(): void {
    this.unsubscribe();
    this.live.clear(); // the hub is going away with its connections
    this.flow.dispose();
  }

  /** Puts the entry in order: drops a repeat, fills a gap from the log first, else delivers it. */
  private sequence(entry: LogEntry): void {
    if (this.backlog) {
      this.backlog.push(entry);
      return;
    }
    if (entry.seq <= this.head) return; // at-least-once delivery: drop repeats
    if (entry.seq > this.head + 1) {
      this.backlog = [entry];
      void this.fillGap(entry.seq - 1);
      return;
    }
    this.deliver(entry);
  }

  /** Fills the gap up to `toSeq` from the log, then lets what waited for it go first. */
  private async fillGap(toSeq: number): Promise<void> {
    await fillGap(this.gapFeed, toSeq);
    const waiting = this.backlog ?? [];
    this.backlog = null;
    // Output may have been held meanwhile: these came before anything held, so they go first.
    this.flow.admitFirst(waiting);
  }

  private deliver(entry: LogEntry): void {
    const frame = serializeEntry(entry);
    this.recent.push(frame);
    this.head = entry.seq;
    if (isClosedEntry(entry)) this.closedSeq = entry.seq;
    this.live.push(entry, frame);
    if (this.pending.size > 0) {
      for (const conn of [...this.pending]) if (conn.position <= this.head) void this.catchUp(conn);
    }
    this.opts.onEntry?.(entry, this.sessionId);
  }

  /** An input frame for this session arrived: the next Output delivered is its echo. */
  markInput(): void {
    this.echo?.input();
  }

  add(conn: Conn): void {
    this.conns.add(conn);
    conn.flushFeed = this.flushNow;
  }

  remove(conn: Conn): void {
    this.conns.delete(conn);
    if (conn.flushFeed === this.flushNow) delete conn.flushFeed;
    this.pending.delete(conn);
    this.catchingUp.delete(conn);
    // The socket is gone: it is fed no more.
    if (conn.feed !== 'behind') moveFeed(conn, 'behind');
  }

  /** The entry as this hub serialized it when it was delivered, else serialized now. */
  frameOf(entry: LogEntry): SerializedFrame {
    return this.recent.get(entry.seq) ?? serializeEntry(entry);
  }

  /** Whether a frame belongs on this connection (README interpretation 2). */
  wants(conn: Conn, frame: { taskId?: string }): boolean {
    return wants(conn, frame);
  }

  /**
   * Sends one frame directly (catch-up, replay); advances the connection's sequence. A direct
   * send is not held back by uWS: past maxBackpressure uWS drops it without a word, so a socket
   * whose backlog would pass the hard bound is skipped forward instead (lagged: it gets
   * PTY_OUTPUT_LAGGED and a Keyframe once it drains), and sends to it stop until then. A cluster
   * catch-up of 500 log entries at a time into a slow socket lost frames this way (bench: 100
   * observers × 49 MB, 43 never saw the end of the stream).
   */
  sendFrame(conn: Conn, frame: SerializedFrame): boolean {
    if (!conn.open || !conn.ws || conn.feed === 'lagged') return false;
    if (frame.seq <= conn.position) return true;
    if (wants(conn, frame) && !writeFrame(conn, frame, this.flow, true)) return false;
    conn.position = frame.seq;
    return true;
  }

  /**
   * Brings the connection from `conn.position` to the head at its socket's pace, then makes it
   * live. A reader whose socket drains nothing for REPLAY_STALL_MS is skipped forward (lagged:
   * PTY_OUTPUT_LAGGED and a Keyframe once it drains); the slow-consumer rule is for live output.
   */
  async catchUp(conn: Conn): Promise<void> {
    if (this.catchingUp.has(conn)) return;
    this.catchingUp.add(conn);
    this.pending.delete(conn);
    this.goOffline(conn);
    try {
      for (;;) {
        // Lagged on the way (its socket backed up): the drain resumes it with a Keyframe.
        if (!conn.open || !this.conns.has(conn) || conn.feed === 'lagged') return;
        if (conn.position > this.head) {
          this.pending.add(conn); // the connection is ahead of this edge's feed: wait for it
          return;
        }
        // Synchronously after the last send (no await between): nothing is delivered meanwhile.
        if (conn.position === this.head) return this.goLive(conn);
        if (!(await this.sendRange(conn, conn.position, this.head, REPLAY_STALL_MS))) return;
      }
    } finally {
      this.catchingUp.delete(conn);
    }
  }

  /**
   * Sends the frames in (afterSeq, toSeq] the connection has not had, directly, at its socket's
   * pace: at most half the slow-consumer threshold ahead of what the reader took. From what this
   * hub serialized when it is all kept, else read from the log a batch at a time. With `stallMs`,
   * a reader whose socket drains nothing for that long is skipped forward (lagged); without, it
   * is waited for as long as its connection lasts. Frames the log no longer holds skip it forward
   * too, never silently; a read that fails goes to `onReadFailed`. False when the connection
   * lagged, closed or could not be read for.
   */
  async sendRange(conn: Conn, afterSeq: number, toSeq: number, stallMs?: number): Promise<boolean> {
    if (conn.position < afterSeq) conn.position = afterSeq;
    while (conn.position < toSeq) {
      if (!(await this.flow.room(conn, stallMs))) return false;
      if (this.recent.covers(conn.position, toSeq)) {
        // Everything missing is still serialized here: no log read, no second serialization.
        this.recent.forEach(conn.position, toSeq, (f) => this.flow.hasRoom(conn) && this.sendFrame(conn, f));
        continue;
      }
      this.hotMisses++;
      this.opts.metrics?.hotWindowMiss();
      let entries: LogEntry[];
      try {
        entries = await this.opts.log.read(this.sessionId, conn.position, { toSeq, limit: REPLAY_BATCH });
      } catch (error) {
        if (usable(conn)) this.opts.onReadFailed?.(conn, error);
        return false;
      }
      if (!usable(conn)) return false;
      if ((entries[0]?.seq ?? Number.POSITIVE_INFINITY) > conn.position + 1) {
        // Trimmed away meanwhile (the log is gapless): the reader is told, and handed a Keyframe.
        this.flow.skipForward(conn);
        return false;
      }
      if (!(await this.sendPaced(conn, entries, stallMs))) return false;
    }
    return usable(conn);
  }

  /** Sends the entries (in order) directly, at the connection's pace (sendRange); false when it lagged or closed. */
  async sendPaced(conn: Conn, entries: readonly LogEntry[], stallMs?: number): Promise<boolean> {
    for (const e of entries) {
      if (!(await this.flow.room(conn, stallMs))) return false;
      this.sendFrame(conn, this.frameOf(e));
    }
    return usable(conn);
  }

  private goLive(conn: Conn): void {
    if (!conn.ws || !conn.open) return;
    moveFeed(conn, 'live');
    if (this.closedSeq !== undefined && conn.attached && conn.position >= this.closedSeq) {
      this.opts.onClosedReached?.(conn);
    }
  }

  /**
   * Whether the connection is still to be sent frames up to `seq` by a join, a catch-up, a replay
   * or the resume of a lag: a member or replaying reader not live yet, or one whose join is under
   * way. Its goodbye at the session's close waits for them (onClosedReached, or the join's own).
   */
  owesFrames(conn: Conn, seq: number): boolean {
    return (conn.attached || conn.joining === true) && conn.feed !== 'live' && conn.position < seq;
  }

  /**
   * Stops live delivery to the connection, which goes behind: per-connection frames (RoleAssigned,
   * a Keyframe, task replies) follow, then a catch-up. Everything sent to it so far is ahead of
   * them in its socket, so its `lastSeq` stays true and nothing is sent twice.
   */
  goOffline(conn: Conn): void {
    this.flushNow();
    if (conn.feed === 'live') moveFeed(conn, 'behind');
  }

  /** Resumes a lagged connection once its socket drained: the caller sends LAGGED + Keyframe. */
  drained(conn: Conn): boolean {
    return this.flow.drained(conn);
  }
}
