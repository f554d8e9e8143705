import {
  LAG_DRAINED_SHARE,
  PACE_HIGH_SHARE,
  PACE_LOW_SHARE,
  SLOW_GRACE_MS,
  type Clock,
  type Disposable,
  type LogEntry,
} from '@pty-ws/ports';
import type { EdgeMetrics } from '@pty-ws/telemetry';
import { moveFeed, type Conn } from '../connection';
import { HeldOutput } from './held-output';
import { LagWatch } from './lag-watch';
import { PaceWatch } from './pace-watch';
import { waitForRoom } from './socket-room';

/** Read once: @pty-ws/ports' CommonJS exports are getters, and this is read per socket and batch. */
const GRACE_MS = SLOW_GRACE_MS;

export interface OutputFlowOptions {
  sessionId: string;
  /** Every "now", poll and wait of the flow rule (tests walk a ManualClock). */
  clock: Clock;
  /** Every connection of the session on this edge (the hub's set, read as it changes). */
  conns: ReadonlySet<Conn>;
  /** Socket backlog past which, held for SLOW_GRACE_MS, a live reader is skipped forward. */
  slowConsumerBytes: number;
  /** Socket backlog past which it is skipped at once: below uWS's maxBackpressure, where it drops frames. */
  hardBacklogBytes: number;
  metrics?: EdgeMetrics;
  /** A reader was skipped forward: it resumes with PTY_OUTPUT_LAGGED and a Keyframe once drained. */
  onLagged: (conn: Conn) => void;
  /** A lagged reader's socket may have drained (polled by LagWatch; uWS's drain event does it too). */
  onDrained?: (conn: Conn) => void;
  /** Tells the owner whether every reader here is behind; resolves with whether it holds (SessionControl.pace). */
  onPace?: (sessionId: string, behind: boolean) => Promise<boolean> | void;
  /** Where an entry goes once it is not held back: the hub's sequencer. */
  pass: (entry: LogEntry) => void;
}

/**
 * Flow control of one session's output on this edge (README.md beside this file draws it): when
 * output is held (PaceWatch, HeldOutput), when a reader is skipped forward (the slow-consumer rule),
 * when a lagged one resumes (LagWatch, `drained`), and at what pace direct sends go (`room`).
 * The hub (session-hub.ts) asks it at each step of the output path; every time it reads comes
 * from the Clock.
 */
export class OutputFlow implements Disposable {
  /** Direct sends keep a socket's backlog at or under this (PaceWatch's "behind"). */
  readonly roomBytes: number;
  private readonly held = new HeldOutput();
  private readonly lagWatch: LagWatch;
  private readonly paceWatch: PaceWatch | undefined;
  /** The owner answered this edge's latest "behind" with "output held" (reportPace). */
  private ownerHolds = false;
  private paceReports = 0;

  constructor(private readonly opts: OutputFlowOptions) {
    this.roomBytes = opts.slowConsumerBytes * PACE_HIGH_SHARE;
    this.lagWatch = new LagWatch(opts.clock, opts.conns, opts.onDrained);
    const onPace = opts.onPace;
    this.paceWatch = onPace
      ? new PaceWatch({
          clock: opts.clock,
          conns: opts.conns,
          slowBytes: opts.slowConsumerBytes,
          highBytes: opts.slowConsumerBytes * PACE_HIGH_SHARE,
          lowBytes: opts.slowConsumerBytes * PACE_LOW_SHARE,
          report: (behind) => this.reportPace(onPace, behind),
          onRelease: () => this.outputFlows(),
        })
      : undefined;
  }

  dispose(): void {
    this.held.clear(); // the hub is going away with its connections
    this.lagWatch.dispose();
    this.paceWatch?.dispose();
  }

  /** Whether output is held for these readers now (the owner was asked to hold it). */
  get holding(): boolean {
    return this.paceWatch?.holding === true;
  }

  /** An entry from the feed: kept back while output is held (or anything is), else passed on. */
  admit(entry: LogEntry): void {
    if (this.holding || this.held.any) {
      this.held.push(entry);
      this.boundHeld();
    } else this.opts.pass(entry);
  }

  /** Entries that waited for a gap in the feed: ahead of anything held meanwhile, else admitted in order. */
  admitFirst(entries: readonly LogEntry[]): void {
    if (this.held.any) {
      this.held.putFirst(entries);
      this.boundHeld();
    } else for (const e of entries) this.admit(e);
  }

  /** A batch of `weight` bytes of entries went to the live readers: the pace is looked at. */
  delivered(weight: number): void {
    this.paceWatch?.delivered(weight);
  }

  /**
   * After a write to a live reader: skips it forward when slow, i.e. its backlog stayed above the
   * slow-consumer threshold for SLOW_GRACE_MS, or came near uWS's own cap (past which uWS drops
   * frames without a word). A burst (a cluster edge gets log entries in batches; a reader is
   * descheduled for a moment) puts every reader above the threshold for an instant: skipping
   * them all then held back readers that keep up.
   */
  checkLive(conn: Conn): void {
    if (conn.feed === 'live' && conn.ws && this.tooSlow(conn, conn.ws.getBufferedAmount())) this.skipForward(conn);
  }

  /** Whether a direct send of `bytes` would take the socket past the hard bound (it skips instead). */
  passesHardBound(conn: Conn, bytes: number): boolean {
    return conn.ws !== undefined && conn.ws.getBufferedAmount() + bytes > this.opts.hardBacklogBytes;
  }

  /** The reader cannot take what it is owed: skipped forward (lagged) until its socket drains. */
  skipForward(conn: Conn): void {
    moveFeed(conn, 'lagged');
    conn.backlogSince = undefined;
    this.opts.metrics?.lagSkip();
    this.opts.onLagged(conn);
    this.lagWatch.start();
  }

  /** Resumes a lagged reader once its socket drained: the caller sends LAGGED + Keyframe. */
  drained(conn: Conn): boolean {
    if (conn.feed !== 'lagged' || !conn.ws) return false;
    if (conn.ws.getBufferedAmount() > this.opts.slowConsumerBytes * LAG_DRAINED_SHARE) return false;
    return moveFeed(conn, 'behind');
  }

  hasRoom(conn: Conn): boolean {
    return conn.ws !== undefined && conn.ws.getBufferedAmount() <= this.roomBytes;
  }

  /** The socket takes more now, or once it drained (one stalled for `stallMs` is skipped forward); false: give up. */
  async room(conn: Conn, stallMs: number | undefined): Promise<boolean> {
    if (!usable(conn)) return false;
    if (this.hasRoom(conn)) return true;
    const wait = await waitForRoom(this.opts.clock, conn, this.roomBytes, stallMs);
    if (wait === 'stalled') this.skipForward(conn);
    return wait === 'room';
  }

  private tooSlow(conn: Conn, backlog: number): boolean {
    if (backlog <= this.opts.slowConsumerBytes) {
      conn.backlogSince = undefined;
      return false;
    }
    if (backlog > this.opts.hardBacklogBytes) return true;
    // Output is being held for these readers: what was sent before the hold took effect is no
    // sign of a slow reader (what arrives later is held back, admit). The grace starts once
    // output flows again.
    if (this.holding) {
      conn.backlogSince = undefined;
      return false;
    }
    const now = this.opts.clock.monotonic();
    conn.backlogSince ??= now;
    return now - conn.backlogSince >= GRACE_MS;
  }

  /** Tells the owner; keeps its answer to a "behind" unless a later report came meanwhile. */
  private reportPace(onPace: NonNullable<OutputFlowOptions['onPace']>, behind: boolean): void {
    const report = ++this.paceReports;
    if (!behind) this.ownerHolds = false;
    const answer = onPace(this.opts.sessionId, behind);
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
    for (const conn of this.opts.conns) conn.backlogSince = undefined;
    this.held.release(() => !this.holding, this.opts.pass);
  }

  /** Held past what the owner can have in flight: all of it goes on, readers that cannot take it are skipped. */
  private boundHeld(): void {
    if (this.held.overBound(this.ownerHolds)) this.held.release(() => true, this.opts.pass);
  }
}

/** The reader can still be sent frames: open, with a socket, not skipped forward. */
export function usable(conn: Conn): boolean {
  return conn.open && conn.ws !== undefined && conn.feed !== 'lagged';
}
