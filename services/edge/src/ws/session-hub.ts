import {
  entryWeight,
  type Disposable,
  type FrameLog,
  type LogCut,
  type LogEntry,
  type Unsubscribe,
} from '@pty-ws/ports';
import { frameKindOf, type EdgeMetrics, type FrameKind } from '@pty-ws/telemetry';
import type { Logger } from '../logger';
import { SEND_DROPPED, sendMessage } from '../uws';
import { moveFeed, type Conn } from './connection';
import { LagWatch } from './lag-watch';
import { PaceWatch } from './pace-watch';
import { RecentFrames } from './recent-frames';
import { serializeEntry, type SerializedFrame } from './serialized-frame';
import { REPLAY_STALL_MS, waitForRoom } from './socket-room';

/**
 * Serialized frames kept per session for catch-ups and join flushes (recent-frames.ts): about the
 * default replay_buffer_frames, bounded in bytes so a hub stays small. It holds the rendering
 * doc's hot window (three 80×24 screenfuls) and much more.
 */
const RECENT_FRAMES = 1024;
const RECENT_BYTES = 4 * 1024 * 1024;

export interface HubOptions {
  log: FrameLog;
  logger: Logger;
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
   * the owner holds the PTY's output meanwhile (pace-watch.ts), and may answer whether it does
   * (SessionControl.pace). Without it, readers are only skipped.
   */
  onPace?: (sessionId: string, behind: boolean) => Promise<boolean> | void;
  /**
   * A connection that was catching up when the session's `Closed` was delivered has now been
   * sent it too (closedSeq): its goodbye is due. Those live at the close get theirs at once.
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
 * Entries kept back on this edge while its readers' output is held (pace-watch.ts), until the
 * owner answers that it holds: more than the sequencer's pipelined appends (at most 4 MiB) and a
 * frame. Past it they go to the sockets, and readers that cannot take them are skipped.
 */
const HELD_BYTES = 8 * 1024 * 1024;
/**
 * The same once the owner has answered that it holds the output: what still arrives was on its
 * way before, and a cluster's log and links held up to ~20 MiB of it in a 100-reader flood. Past
 * 8 MiB it went to every reader at once, past the hard bound, and skipped nearly all 100. This
 * bound only keeps an edge's memory finite.
 */
const HELD_BYTES_OWNER_HOLDING = 64 * 1024 * 1024;

/**
 * Log entries read at a time by a catch-up or replay: what one reader makes this edge hold beside
 * its socket's backlog (Output entries are up to 256 KiB).
 */
const REPLAY_BATCH = 64;

/** How long a gap fill waits for entries the live feed delivered before the log stored them. */
const GAP_STORE_WAIT_MS = 5000;
/** How long a backlog above PTYWS_SLOW_CONSUMER_BYTES is tolerated before the socket is skipped forward. */
export const SLOW_GRACE_MS = 250;

/** A delivered entry and its serialized frame, until the live connections have it. */
interface Delivered {
  entry: LogEntry;
  frame: SerializedFrame;
}

/** How many sockets a delivered frame was written to, per format (metrics). */
interface SentCounts {
  json: number;
  binary: number;
}

/**
 * Frames from this size on go to a socket on their own, uncorked: they do not fit uWS's 16 KiB
 * cork buffer, so uWS copies each into the socket's own buffer and writes it at once anyway.
 */
const LARGE_FRAME_BYTES = 16 * 1024;

/** Whether the frame goes to this connection on its own (an Output frame's JSON is ~4/3 its bytes). */
function isLarge(conn: Conn, frame: SerializedFrame): boolean {
  const bytes = frame.binary ? (conn.binary ? frame.binary.length : (frame.bytes * 4) / 3) : frame.bytes;
  return bytes >= LARGE_FRAME_BYTES;
}

/** An input older than this had no echo: the next Output is not its answer. */
const ECHO_WINDOW_MS = 5000;

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
  private readonly lagWatch: LagWatch;
  private readonly paceWatch: PaceWatch | undefined;
  private readonly pending = new Set<Conn>();
  private readonly unsubscribe: Unsubscribe;
  private readonly catchingUp = new Set<Conn>();
  /** Counters for the sessions API: how often replay had to leave the hot window. */
  hotMisses = 0;
  /** Sequence of the session's `Closed` once this hub delivered it: nothing follows it. */
  closedSeq: number | undefined;
  /** performance.now() of the oldest input not yet followed by Output (0: none), for echo latency. */
  private inputAt = 0;

  constructor(
    readonly sessionId: string,
    startSeq: number,
    private readonly opts: HubOptions,
  ) {
    this.head = startSeq;
    const onCut = opts.onCut;
    this.unsubscribe = opts.log.subscribe(sessionId, (e) => this.onEntry(e), onCut && ((cut) => onCut(cut, sessionId)));
    this.lagWatch = new LagWatch(this.conns, opts.onDrained);
    const onPace = opts.onPace;
    this.paceWatch = onPace
      ? new PaceWatch({
          conns: this.conns,
          slowBytes: opts.slowConsumerBytes,
          highBytes: opts.slowConsumerBytes / 2,
          lowBytes: opts.slowConsumerBytes / 8,
          report: (behind) => this.reportPace(onPace, behind),
          onRelease: () => this.outputFlows(),
        })
      : undefined;
  }

  dispose(): void {
    this.unsubscribe();
    this.batch = []; // the hub is going away with its connections
    this.held = []; // the hub is going away: nothing it held is sent
    this.heldBytes = 0;
    this.lagWatch.dispose();
    this.paceWatch?.dispose();
  }

  /** Entries held while a gap in the feed is filled from the log, so order is never broken. */
  private backlog: LogEntry[] | null = null;
  /**
   * Entries kept back while every reader here is behind and the owner was asked to hold output
   * (held by PaceWatch): delivered once one reader keeps up again. What the owner had already
   * sent when it stopped reading the PTY would otherwise land in the sockets of readers that are
   * paused, past the hard bound, and skip them (cluster: up to 32 appends in flight).
   */
  private held: LogEntry[] = [];
  /** Delivered entries not yet written to the live connections (flushFeed). */
  private batch: Delivered[] = [];
  private batchBytes = 0;
  private batchQueued = false;
  private heldBytes = 0;
  private releasing = false;

  private onEntry(entry: LogEntry): void {
    if (this.paceWatch?.holding || this.held.length > 0) {
      this.held.push(entry);
      this.heldBytes += entryWeight(entry);
      this.boundHeld();
      return;
    }
    this.sequence(entry);
  }

  /** The owner answered this edge's latest "behind" with "output held" (reportPace). */
  private ownerHolds = false;
  private paceReports = 0;

  /** Tells the owner; keeps its answer to a "behind" unless a later report came meanwhile. */
  private reportPace(onPace: NonNullable<HubOptions['onPace']>, behind: boolean): void {
    const report = ++this.paceReports;
    if (!behind) this.ownerHolds = false;
    const answer = onPace(this.sessionId, behind);
    if (!behind || !answer) return;
    void answer.then((held) => {
      if (report === this.paceReports) this.ownerHolds = held;
    });
  }

  /**
   * Output flows again after a hold: every reader's slow-consumer grace starts over, then what
   * was held goes out. Nothing looks at the backlogs while output is held (nothing is written), so
   * a grace begun before the hold ran out during it, and a reader still draining what it got
   * before the hold was skipped by the first frame after it (cluster fan-out: a dozen readers
   * at once, each above the threshold for 300 ms of which the hold took most).
   */
  private outputFlows(): void {
    for (const conn of this.conns) conn.backlogSince = undefined;
    this.releaseHeld();
  }

  /**
   * Held past what the owner can have in flight: it is not holding (a reader on another edge
   * keeps up), or has not answered that it is. All of it is delivered; readers that cannot take
   * it are skipped forward as before.
   */
  private boundHeld(): void {
    if (this.heldBytes > (this.ownerHolds ? HELD_BYTES_OWNER_HOLDING : HELD_BYTES)) this.releaseHeld(true);
  }

  /**
   * Delivers what was held, in arrival order, while output flows (or all of it): a reader that
   * falls behind again on the way holds the rest back again.
   */
  private releaseHeld(all = false): void {
    if (this.releasing) return;
    this.releasing = true;
    let i = 0;
    try {
      while (i < this.held.length && (all || !this.paceWatch?.holding)) {
        const entry = this.held[i++] as LogEntry;
        this.heldBytes -= entryWeight(entry);
        this.sequence(entry);
      }
    } finally {
      this.held.splice(0, i);
      this.releasing = false;
    }
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

  /**
   * Live copies can run ahead of the store (the writer publishes them beside the append), so an
   * empty read may mean "not stored yet" rather than "trimmed": the log's head tells which.
   */
  private async fillGap(toSeq: number): Promise<void> {
    try {
      const deadline = Date.now() + GAP_STORE_WAIT_MS;
      while (this.head < toSeq) {
        // What the log holds first, then the read: an empty read after that means trimmed. The
        // other way round, entries stored between the read and the look were taken for trimmed.
        const upTo = Math.min(toSeq, (await this.opts.log.bounds(this.sessionId)).lastSeq);
        if (upTo > this.head) {
          const missing = await this.opts.log.read(this.sessionId, this.head, { toSeq: upTo, limit: 500 });
          // The log is gapless: a first entry past the hole means the hole was trimmed meanwhile.
          for (const e of missing) if (e.seq > this.head) this.deliver(e);
          if (missing.length > 0) continue;
        }
        if (upTo > this.head || Date.now() > deadline) {
          this.head = toSeq; // trimmed before we could read it: nothing left to deliver
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } catch (err) {
      this.opts.logger.warn({ session_id: this.sessionId, err: (err as Error).message }, 'hub gap fill failed');
    }
    const waiting = this.backlog ?? [];
    this.backlog = null;
    if (this.held.length > 0) {
      // Output was held meanwhile: these came before anything held, so they go first.
      this.held.unshift(...waiting);
      for (const e of waiting) this.heldBytes += entryWeight(e);
      this.boundHeld();
    } else for (const e of waiting) this.onEntry(e);
  }

  private deliver(entry: LogEntry): void {
    const frame = serializeEntry(entry);
    this.recent.push(frame);
    this.head = entry.seq;
    if (entry.type === 'event' && entry.payload['kind'] === 'Closed') this.closedSeq = entry.seq;
    this.batch.push({ entry, frame });
    this.batchBytes += frame.bytes;
    // A large frame, or small ones adding up to one, is written now: the pace and slow-consumer
    // checks after it must see each one (a release of held output stops once readers fall behind
    // again; a cluster edge can get megabytes from one NATS read).
    if (this.batchBytes >= LARGE_FRAME_BYTES) this.flushNow();
    else if (!this.batchQueued) {
      this.batchQueued = true;
      queueMicrotask(this.flushFeed);
    }
    if (this.pending.size > 0) {
      for (const conn of [...this.pending]) if (conn.position <= this.head) void this.catchUp(conn);
    }
    this.opts.onEntry?.(entry, this.sessionId);
  }

  /**
   * Writes the frames delivered since the last call to every live connection: at the end of the
   * turn's synchronous work (a microtask), or before anything else is sent to one of them
   * (`Conn.flushFeed`: a reply, a Keyframe, a goodbye, going behind), so a connection's frames
   * keep their order and `lastSeq` counts exactly what was written.
   *
   * A cluster edge gets several entries from one NATS read: uWS's topics batched them into one
   * write per socket, and a send per frame made ~1.8× the socket writes (100 observers of small
   * frames: ~20 % more of the edge's CPU). Here a socket's small frames of one batch go out corked,
   * as one write, and a large one on its own. A batch is written as soon as it
   * holds LARGE_FRAME_BYTES, so large frames go out one by one, each followed by the checks.
   */
  private readonly flushFeed = (): void => {
    this.batchQueued = false;
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    const sent: SentCounts[] = batch.map(() => ({ json: 0, binary: 0 }));
    for (const conn of this.conns) {
      if (conn.feed !== 'live' || !conn.open) continue;
      this.writeLive(conn, batch, sent);
      if (conn.feed === 'live' && conn.ws && this.tooSlow(conn, conn.ws.getBufferedAmount())) this.skipForward(conn);
    }
    let weight = 0;
    batch.forEach(({ entry, frame }, i) => {
      weight += entryWeight(entry);
      const n = sent[i] as SentCounts;
      if (this.opts.metrics) this.countSent(this.opts.metrics, entry, frame, n.json, n.binary);
    });
    this.paceWatch?.delivered(weight);
  };

  /** The batch's frames past the live connection's position, small ones corked together. */
  private writeLive(conn: Conn, batch: readonly Delivered[], sent: readonly SentCounts[]): void {
    const ws = conn.ws;
    if (!ws) return;
    for (let i = 0; i < batch.length && conn.feed === 'live';) {
      // A large frame, or the last: alone (one write anyway).
      if (i === batch.length - 1 || isLarge(conn, (batch[i] as Delivered).frame)) {
        this.writeItem(conn, batch[i] as Delivered, sent[i] as SentCounts);
        i++;
        continue;
      }
      ws.cork(() => {
        do {
          this.writeItem(conn, batch[i] as Delivered, sent[i] as SentCounts);
          i++;
        } while (i < batch.length && conn.feed === 'live' && !isLarge(conn, (batch[i] as Delivered).frame));
      });
    }
  }

  /** One delivered frame to a live connection, unless it caught up past it (a catch-up meanwhile). */
  private writeItem(conn: Conn, { frame }: Delivered, counts: SentCounts): void {
    if (frame.seq <= conn.position) return;
    conn.position = frame.seq;
    if (!this.wants(conn, frame)) return;
    const format = this.write(conn, frame);
    if (format !== undefined) counts[format]++;
  }

  /**
   * Writes what was delivered and not yet written (a no-op when nothing is waiting); also each
   * connection's `flushFeed` while the hub holds it.
   */
  readonly flushNow = (): void => {
    if (this.batch.length > 0) this.flushFeed();
  };

  /** Metrics per frame and format sent, never per socket: `json` and `binary` count the sockets. */
  private countSent(metrics: EdgeMetrics, entry: LogEntry, frame: SerializedFrame, json: number, binary: number): void {
    const kind: FrameKind =
      entry.type === 'output'
        ? 'output'
        : frameKindOf(typeof entry.payload['kind'] === 'string' ? entry.payload['kind'] : entry.op);
    if (json > 0) metrics.frameOut(kind, frame.jsonBytes.length, json);
    if (binary > 0 && frame.binary) metrics.frameOut(kind, frame.binary.length, binary);
    if (kind === 'output' && this.inputAt !== 0) {
      const ms = performance.now() - this.inputAt;
      this.inputAt = 0;
      if (ms <= ECHO_WINDOW_MS) metrics.echoLatency(ms / 1000);
    }
  }

  /** An input frame for this session arrived: the next Output delivered is its echo. */
  markInput(): void {
    if (this.opts.metrics && this.inputAt === 0) this.inputAt = performance.now();
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
    return frame.taskId !== undefined ? conn.tasks.has(frame.taskId) : conn.attached;
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
    if (this.wants(conn, frame) && !this.write(conn, frame, true)) return false;
    conn.position = frame.seq;
    return true;
  }

  /**
   * Writes a frame the connection wants, in its format (events travel as JSON in both), and counts
   * it in `lastSeq`. A send uWS drops (the socket is past maxBackpressure) skips the connection
   * forward instead (undefined: nothing written); with `bounded`, so does a send that would take
   * the backlog past the hard bound (catch-up: hundreds of frames at once). Live connections are
   * held under it by the check after each batch (tooSlow).
   */
  private write(conn: Conn, frame: SerializedFrame, bounded = false): 'json' | 'binary' | undefined {
    const ws = conn.ws;
    if (!ws || !conn.open) return undefined;
    const binary = conn.binary && frame.binary !== undefined;
    const bytes = binary ? (frame.binary as Uint8Array) : frame.jsonBytes;
    if (
      (bounded && ws.getBufferedAmount() + bytes.length > this.opts.hardBacklogBytes) ||
      sendMessage(ws, bytes, binary) === SEND_DROPPED
    ) {
      this.skipForward(conn);
      return undefined;
    }
    conn.lastSeq = frame.seq;
    return binary ? 'binary' : 'json';
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
      if (!(await this.room(conn, stallMs))) return false;
      if (this.recent.covers(conn.position, toSeq)) {
        // Everything missing is still serialized here: no log read, no second serialization.
        this.recent.forEach(conn.position, toSeq, (f) => this.hasRoom(conn) && this.sendFrame(conn, f));
        continue;
      }
      this.hotMisses++;
      this.opts.metrics?.hotWindowMiss();
      let entries: LogEntry[];
      try {
        entries = await this.opts.log.read(this.sessionId, conn.position, { toSeq, limit: REPLAY_BATCH });
      } catch (error) {
        if (this.usable(conn)) this.opts.onReadFailed?.(conn, error);
        return false;
      }
      if (!this.usable(conn)) return false;
      if ((entries[0]?.seq ?? Number.POSITIVE_INFINITY) > conn.position + 1) {
        // Trimmed away meanwhile (the log is gapless): the reader is told, and handed a Keyframe.
        this.skipForward(conn);
        return false;
      }
      if (!(await this.sendPaced(conn, entries, stallMs))) return false;
    }
    return this.usable(conn);
  }

  /** Sends the entries (in order) directly, at the connection's pace (sendRange); false when it lagged or closed. */
  async sendPaced(conn: Conn, entries: readonly LogEntry[], stallMs?: number): Promise<boolean> {
    for (const e of entries) {
      if (!(await this.room(conn, stallMs))) return false;
      this.sendFrame(conn, this.frameOf(e));
    }
    return this.usable(conn);
  }

  /** The socket takes more now, or once it drained (a stalled one is skipped forward); false: give up. */
  private async room(conn: Conn, stallMs: number | undefined): Promise<boolean> {
    if (!this.usable(conn)) return false;
    if (this.hasRoom(conn)) return true;
    const wait = await waitForRoom(conn, this.roomBytes, stallMs);
    if (wait === 'stalled') this.skipForward(conn);
    return wait === 'room';
  }

  /** Direct sends keep a socket's backlog at or under this: half the slow-consumer threshold (PaceWatch's "behind"). */
  private get roomBytes(): number {
    return this.opts.slowConsumerBytes / 2;
  }

  private hasRoom(conn: Conn): boolean {
    return conn.ws !== undefined && conn.ws.getBufferedAmount() <= this.roomBytes;
  }

  private usable(conn: Conn): boolean {
    return conn.open && conn.ws !== undefined && conn.feed !== 'lagged';
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

  /**
   * A socket is slow when its backlog stays above the threshold for SLOW_GRACE_MS, or comes near
   * uWS's own cap (past which uWS drops frames without a word). A burst
   * (a cluster edge gets log entries in batches; a reader is descheduled for a moment) puts every
   * reader above the threshold for an instant: skipping them all then held back readers that keep up.
   */
  private tooSlow(conn: Conn, backlog: number): boolean {
    const threshold = this.opts.slowConsumerBytes;
    if (backlog <= threshold) {
      conn.backlogSince = undefined;
      return false;
    }
    if (backlog > this.opts.hardBacklogBytes) return true;
    // Output is being held for these readers: what was sent before the hold took effect
    // is no sign of a slow reader (what arrives later is held back, onEntry). The grace starts
    // once output flows again.
    if (this.paceWatch?.holding) {
      conn.backlogSince = undefined;
      return false;
    }
    const now = performance.now();
    conn.backlogSince ??= now;
    return now - conn.backlogSince >= SLOW_GRACE_MS;
  }

  private skipForward(conn: Conn): void {
    moveFeed(conn, 'lagged');
    this.countLag(conn);
  }

  /** A connection was skipped forward: it resumes with PTY_OUTPUT_LAGGED and a Keyframe once drained. */
  private countLag(conn: Conn): void {
    conn.backlogSince = undefined;
    this.opts.metrics?.lagSkip();
    this.opts.onLagged(conn);
    this.lagWatch.start();
  }

  /** Resumes a lagged connection once its socket drained: the caller sends LAGGED + Keyframe. */
  drained(conn: Conn): boolean {
    if (conn.feed !== 'lagged' || !conn.ws) return false;
    if (conn.ws.getBufferedAmount() > this.opts.slowConsumerBytes / 4) return false;
    return moveFeed(conn, 'behind');
  }
}
