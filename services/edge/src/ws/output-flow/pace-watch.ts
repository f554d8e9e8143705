import {
  PACE_MAX_HOLD_MS,
  PACE_POLL_MS,
  PACE_REFRESH_MS,
  type Clock,
  type ClockTimer,
  type Disposable,
} from '@pty-ws/ports';
import type { Conn } from '../connection';
import { probeLate, probeReader } from './pace-probe';

export interface PaceWatchOptions {
  /** Time: the poll while holding, and every "now" (tests walk a ManualClock). */
  clock: Clock;
  /** Every connection of the session on this edge. */
  conns: Iterable<Conn>;
  /** Backlog past which a reader is near a skip (the slow-consumer threshold). */
  slowBytes: number;
  /** Backlog above which a reader is behind (half the slow-consumer threshold). */
  highBytes: number;
  /**
   * Backlog at or below which a reader keeps up again (an eighth of it); also the output that
   * flows between two pace probes of a reader (pace-probe.ts).
   */
  lowBytes: number;
  /** Tells the session's owner whether every reader here is behind (true) or one keeps up (false). */
  report: (behind: boolean) => void;
  /** Output flows again (a reader keeps up, or they are stuck): what the edge held back may go. */
  onRelease?: () => void;
}

type PaceState = 'flowing' | 'holding' | 'stuck';

/**
 * The session's output goes at the pace of most of its readers (ARCHITECTURE, "Output waits for
 * most readers"). When more than half of the connections of the session on this edge are behind,
 * the owner is asked to stop reading the PTY (the program blocks on its writes, as on a slow
 * terminal) instead of skipping them forward; once one is back under the low mark and most are no
 * longer behind, output flows again. A reader slower than most is still skipped forward
 * (PTY_OUTPUT_LAGGED), a minority that stops reading holds nobody, and observers never hold back
 * a controller that keeps up: the program goes at the pace of whoever drives it. Waiting for the fastest
 * reader alone let a burst skip nearly all of them: a cluster edge gets log entries in bursts of
 * megabytes, and a reader whose kernel buffers still had room showed no backlog and kept output
 * flowing while the rest passed the hard bound (100-observer fan-out: 89–100 of 100 skipped).
 * Readers that drain nothing for PACE_MAX_HOLD_MS are stuck: the edge lets go until one recovers,
 * so a majority that stopped reading holds the others for that long, once.
 * A reader whose pace probe is late (pace-probe.ts) is behind too, by what its kernel buffers,
 * which the backlog does not show, but only while another reader is near a skip: then holding
 * spares that one a skip. Otherwise what the kernels buffer is output that flows instead of
 * waiting (holding for late readers alone made the single-node fan-out slower).
 */
export class PaceWatch implements Disposable {
  private state: PaceState = 'flowing';
  private since = 0;
  private reportedAt = 0;
  private timer: ClockTimer | undefined;
  /** Output bytes delivered to this session's readers on this edge: when readers are probed. */
  private flowed = 0;

  constructor(private readonly opts: PaceWatchOptions) {}

  /** An output frame of `bytes` went to the readers: looks at them (check). */
  delivered(bytes: number, now = this.opts.clock.monotonic()): void {
    this.flowed += bytes;
    this.check(now);
  }

  /** The owner was asked to hold output for these readers (and has not been told otherwise). */
  get holding(): boolean {
    return this.state === 'holding';
  }

  /** Looks at the readers (after each delivered frame, and on a timer while holding). */
  check(now = this.opts.clock.monotonic()): void {
    const { any, behind, keepingUp } = this.readers(now);
    switch (this.state) {
      case 'flowing':
        if (behind) this.hold(now);
        return;
      case 'holding':
        // Released at the low mark, not the high one: output resumes in runs, not in slivers.
        if (keepingUp || !any) return this.release('flowing');
        if (now - this.since >= PACE_MAX_HOLD_MS) return this.release('stuck');
        if (now - this.reportedAt >= PACE_REFRESH_MS) this.send(true, now);
        return;
      case 'stuck':
        if (keepingUp) this.state = 'flowing';
        return;
    }
  }

  /** The hub is going away: output must not stay held for readers that are gone. */
  dispose(): void {
    if (this.state === 'holding') this.release('flowing');
    this.stopTimer();
  }

  /**
   * behind: there are readers and most of those not skipped forward (more than half) are behind:
   * past the high mark, or late with their probe while one is near a skip; never while a
   * controller is not. keepingUp: one is at or under the low mark and has answered its probes,
   * and most are no longer behind. Probes the readers that are due one.
   */
  private readers(now: number): { any: boolean; behind: boolean; keepingUp: boolean } {
    let any = false;
    let live = 0; // readers not skipped forward
    let pastHigh = 0; // their backlog is past the high mark
    let lateOnly = 0; // under it, but late with their probe
    let nearSkip = false; // a reader's backlog is past the slow-consumer threshold
    let oneKeepsUp = false;
    let controllerKeepsUp = false; // a controller under the high mark that answers its probes
    for (const conn of this.opts.conns) {
      if (!conn.open || !conn.ws) continue;
      any = true;
      if (conn.feed === 'lagged') continue; // skipped forward: it resumes with a Keyframe once drained
      live++;
      probeReader(conn, this.flowed, this.opts.lowBytes, now);
      const late = probeLate(conn, now);
      const backlog = conn.ws.getBufferedAmount();
      if (backlog <= this.opts.lowBytes && !late) oneKeepsUp = true;
      if (backlog > this.opts.highBytes) pastHigh++;
      else if (late) lateOnly++;
      else if (conn.role === 'controller') controllerKeepsUp = true;
      if (backlog > this.opts.slowBytes) nearSkip = true;
    }
    const most = !controllerKeepsUp && (pastHigh + (nearSkip ? lateOnly : 0)) * 2 > live;
    return { any, behind: any && (live === 0 || most), keepingUp: oneKeepsUp && !most };
  }

  private hold(now: number): void {
    this.state = 'holding';
    this.since = now;
    this.send(true, now);
    if (!this.timer) {
      this.timer = this.opts.clock.setInterval(() => this.check(), PACE_POLL_MS).unref();
    }
  }

  private release(to: 'flowing' | 'stuck'): void {
    this.state = to;
    this.stopTimer();
    this.send(false, this.opts.clock.monotonic());
    this.opts.onRelease?.();
  }

  private send(behind: boolean, now: number): void {
    this.reportedAt = now;
    this.opts.report(behind);
  }

  private stopTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
