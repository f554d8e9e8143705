import type { Disposable } from '@pty-ws/ports';
import type { Conn } from './connection';

/** How often, while this edge holds a session's output back, its readers are looked at again. */
const PACE_POLL_MS = 20;
/** How often a held-back report is repeated: the owner forgets one after PACE_REPORT_TTL_MS (agent). */
export const PACE_REFRESH_MS = 200;
/**
 * The longest the edge keeps a session's output waiting for readers that drain nothing below the
 * low mark: past it they count as stuck (a frozen tab, a dead link), are left to the slow-consumer
 * skip, and the program runs on.
 */
export const PACE_MAX_HOLD_MS = 3000;

export interface PaceWatchOptions {
  /** Every connection of the session on this edge. */
  conns: Iterable<Conn>;
  /** Backlog above which a reader is behind (half the slow-consumer threshold). */
  highBytes: number;
  /** Backlog at or below which a reader keeps up again (an eighth of it). */
  lowBytes: number;
  /** Tells the session's owner whether every reader here is behind (true) or one keeps up (false). */
  report: (behind: boolean) => void;
}

type PaceState = 'flowing' | 'holding' | 'stuck';

/**
 * The session's output goes at the pace of its fastest reader (ARCHITECTURE, "Output waits for
 * the fastest reader"). When every connection of the session on this edge is behind, the owner
 * is asked to stop reading the PTY (the program blocks on its writes, as on a slow terminal)
 * instead of skipping every reader forward; as soon as one is back under the low mark, output
 * flows again. A reader slower than the fastest is still skipped forward (PTY_OUTPUT_LAGGED).
 * Readers that drain nothing for PACE_MAX_HOLD_MS are stuck: the edge lets go until one recovers.
 */
export class PaceWatch implements Disposable {
  private state: PaceState = 'flowing';
  private since = 0;
  private reportedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: PaceWatchOptions) {}

  /** The owner was asked to hold output for these readers (and has not been told otherwise). */
  get holding(): boolean {
    return this.state === 'holding';
  }

  /** Looks at the readers (after each delivered frame, and on a timer while holding). */
  check(now = performance.now()): void {
    const { any, behind, keepingUp } = this.readers();
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

  /** behind: there are readers and every one is behind; keepingUp: one is at or under the low mark. */
  private readers(): { any: boolean; behind: boolean; keepingUp: boolean } {
    let any = false;
    let behind = true;
    let keepingUp = false;
    for (const conn of this.opts.conns) {
      if (!conn.open || !conn.ws) continue;
      any = true;
      if (conn.feed === 'lagged') continue; // skipped forward: behind, until it drains and resumes
      const backlog = conn.ws.getBufferedAmount();
      if (backlog <= this.opts.lowBytes) keepingUp = true;
      if (backlog <= this.opts.highBytes) behind = false;
    }
    return { any, behind: any && behind, keepingUp };
  }

  private hold(now: number): void {
    this.state = 'holding';
    this.since = now;
    this.send(true, now);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), PACE_POLL_MS);
      this.timer.unref();
    }
  }

  private release(to: 'flowing' | 'stuck'): void {
    this.state = to;
    this.stopTimer();
    this.send(false, performance.now());
  }

  private send(behind: boolean, now: number): void {
    this.reportedAt = now;
    this.opts.report(behind);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
