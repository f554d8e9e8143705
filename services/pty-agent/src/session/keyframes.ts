import { SNAPSHOT_FORMAT, newId } from '@pty-ws/protocol';
import { systemClock, type Clock, type ClockTimer, type Disposable, type Keyframe } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import type { ScreenSnapshot } from '@pty-ws/terminal-state';
import type { TerminalMirror } from '../mirror/terminal-mirror';
import type { Sequencer } from './sequencer';

export interface KeyframesDeps {
  /** The session's headless terminal: what snapshots are taken of. */
  screen: TerminalMirror;
  /** Where cadence keyframes are logged (or reserve their place). */
  sequencer: Sequencer;
  /** The log's last sequence when the runtime starts: what the screen shows so far. */
  lastSeq: number;
  /** keyframe_interval_seconds, in ms, and keyframe_interval_frames (extension: Keyframes). */
  intervalMs: number;
  intervalFrames: number;
  /** The session's lifecycle: cadence keyframes are made while it runs, never after it closed. */
  lifecycle: () => 'running' | 'closing' | 'closed';
  metrics?: AgentMetrics;
  /** The cadence's timer and its interval (wall), snapshot durations (monotonic); default the system's. */
  clock?: Clock;
}

/**
 * One session's keyframes: the cadence Keyframes logged every `keyframe_interval_frames` Output
 * frames (and every `keyframe_interval_seconds` during output), and the on-demand snapshots
 * sent to one connection. The runtime tells it of every entry that changes the screen.
 */
export class Keyframes implements Disposable {
  private outputsSinceKeyframe = 0;
  private readonly clock: Clock;
  private lastKeyframeAt: number;
  /** Sequence of the last log entry that changed the screen (Output, Resize): what a snapshot must match. */
  private screenSeq: number;
  /** A cadence snapshot is being taken; `keyframeDue`: one must be taken at the next chance. */
  private keyframePending = false;
  private keyframeDue = false;
  /** Cadence snapshots in a row that output overtook; past MAX_KEYFRAME_RETRIES the keyframe reserves its place. */
  private keyframeRetries = 0;
  /** Bumped whenever a cadence keyframe takes its sequence: snapshots requested before are moot. */
  private keyframeGeneration = 0;
  /** The last on-demand snapshot and the log sequence it stands for: joins at one anchor share it. */
  private snapshotCache: { anchorSeq: number; snapshot: Promise<ScreenSnapshot> } | undefined;
  private readonly cadenceTimer: ClockTimer;

  constructor(private readonly deps: KeyframesDeps) {
    this.clock = deps.clock ?? systemClock;
    this.lastKeyframeAt = this.clock.now();
    this.screenSeq = deps.lastSeq;
    this.cadenceTimer = this.clock
      .setInterval(() => this.cadenceTick(), Math.max(50, Math.min(1000, deps.intervalMs / 4)))
      .unref();
  }

  dispose(): void {
    this.cadenceTimer.cancel();
  }

  /** An Output frame was sequenced at `seq` (after the mirror was fed it). */
  outputLogged(seq: number): void {
    this.screenSeq = seq;
    this.outputsSinceKeyframe++;
    const interval = this.deps.intervalFrames;
    // The extension's bound is hard: the Output frame that completes an interval is followed by a
    // Keyframe before any other Output. Attempts start a quarter interval early, without holding
    // the log, so one usually lands in a pause; the boundary itself reserves its place.
    if (this.outputsSinceKeyframe >= interval) this.reserveKeyframe();
    else if (this.keyframeDue || this.outputsSinceKeyframe >= interval - keyframeLead(interval)) this.logKeyframe();
  }

  /** Another entry that changes the screen (Resize) was sequenced at `seq`. */
  screenChanged(seq: number): void {
    this.screenSeq = seq;
  }

  /** Logs a Keyframe now (after re-attaching to a managed session), so every client's screen resyncs. */
  resync(): void {
    this.logKeyframe();
  }

  private cadenceTick(): void {
    if (this.deps.lifecycle() !== 'running') return;
    if (this.keyframeDue) return this.logKeyframe();
    if (this.outputsSinceKeyframe === 0) return;
    if (this.clock.now() - this.lastKeyframeAt >= this.deps.intervalMs) this.logKeyframe();
  }

  /**
   * A cadence Keyframe: a log entry whose anchor is the entry right before it, so its snapshot
   * must reflect exactly the entries before it. The snapshot is taken without holding the log:
   * once xterm has parsed everything written so far, if no Output or Resize was sequenced
   * meanwhile the keyframe is logged right then as the next entry. If output overtook it, it is
   * tried again with the next output (or the next quiet tick). Output keeps flowing meanwhile;
   * only after MAX_KEYFRAME_RETRIES misses does it reserve its sequence and make later entries
   * wait, so a keyframe is late by a few frames at most, never skipped.
   */
  private logKeyframe(): void {
    if (this.keyframePending) {
      this.keyframeDue = true;
      return;
    }
    this.keyframeDue = false;
    if (this.keyframeRetries >= MAX_KEYFRAME_RETRIES) return this.reserveKeyframe();
    const startedAt = this.clock.monotonic();
    const screenSeq = this.screenSeq;
    const generation = this.keyframeGeneration;
    this.keyframePending = true;
    this.deps.screen.snapshot().then(
      (s) => {
        this.keyframePending = false;
        if (this.deps.lifecycle() === 'closed') return;
        // A keyframe reserved meanwhile (the interval's boundary) already answered this one.
        if (generation !== this.keyframeGeneration) return;
        if (this.screenSeq !== screenSeq) {
          this.keyframeRetries++;
          this.keyframeDue = true;
          return;
        }
        this.keyframeRetries = 0;
        this.keyframeLogged();
        this.recordKeyframe('cadence', s.snapshot, startedAt);
        // No await since the snapshot: the log's last entry is still the one the screen shows.
        this.deps.sequencer.event('pty.session_frame', keyframePayload(s, this.deps.sequencer.lastSeq));
      },
      () => {
        this.keyframePending = false;
      },
    );
  }

  /** A cadence keyframe has just taken its place in the sequence: the next interval starts. */
  private keyframeLogged(): void {
    this.keyframeGeneration++;
    this.outputsSinceKeyframe = 0;
    this.lastKeyframeAt = this.clock.now();
  }

  /** The fallback: reserve the next sequence now, later entries wait for the snapshot. */
  private reserveKeyframe(): void {
    this.keyframeRetries = 0;
    this.keyframeDue = false;
    this.keyframeLogged();
    const startedAt = this.clock.monotonic();
    const snapshot = this.deps.screen.snapshot();
    this.deps.sequencer.reserve(async (seq) => {
      const s = await snapshot;
      this.recordKeyframe('cadence', s.snapshot, startedAt);
      return {
        type: 'event',
        seq,
        id: newId(),
        ts: this.clock.now(),
        op: 'pty.session_frame',
        payload: keyframePayload(s, seq - 1),
      };
    });
  }

  /**
   * A keyframe for one connection (join flush, request, role change, lag): not logged. The screen
   * only changes with a logged entry, so requests at the same anchor (the joins of an attach
   * storm answered by one MembershipChanged) share one snapshot.
   */
  async onDemand(): Promise<Keyframe> {
    const anchorSeq = this.deps.sequencer.lastSeq;
    let cached = this.snapshotCache;
    if (!cached || cached.anchorSeq !== anchorSeq) {
      const startedAt = this.clock.monotonic();
      const snapshot = this.deps.screen.snapshot();
      cached = { anchorSeq, snapshot };
      this.snapshotCache = cached;
      snapshot.then(
        (s) => this.recordKeyframe('on_demand', s.snapshot, startedAt),
        () => {
          if (this.snapshotCache === cached) this.snapshotCache = undefined;
        },
      );
    }
    const s = await cached.snapshot;
    return { snapshot: s.snapshot, cols: s.cols, rows: s.rows, anchorSeq };
  }

  private recordKeyframe(trigger: 'cadence' | 'on_demand', snapshot: string, startedAt: number): void {
    this.deps.metrics?.keyframe(
      trigger,
      Buffer.byteLength(snapshot, 'utf8'),
      (this.clock.monotonic() - startedAt) / 1000,
    );
  }
}

/** Cadence snapshots overtaken by output in a row before the keyframe holds the log instead. */
const MAX_KEYFRAME_RETRIES = 3;

/** How many Output frames before the interval's end cadence attempts start (a quarter, at least one). */
function keyframeLead(interval: number): number {
  return Math.max(1, Math.floor(interval / 4));
}

function keyframePayload(s: ScreenSnapshot, anchorSeq: number): Record<string, unknown> {
  return {
    kind: 'Keyframe',
    snapshot: Buffer.from(s.snapshot, 'utf8').toString('base64'),
    snapshot_format: SNAPSHOT_FORMAT,
    snapshot_cols: s.cols,
    snapshot_rows: s.rows,
    anchor_sequence: anchorSeq,
  };
}
