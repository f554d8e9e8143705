import { PACE_REPORT_TTL_MS, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';

export interface ReaderPaceOptions {
  clock: Clock;
  /** The edges that hold members of the session now (membership). */
  memberEdges: () => Iterable<string>;
  /** Output must wait for the readers (true), or may flow again (false): called on changes only. */
  onChange: (hold: boolean) => void;
}

/**
 * The owner's half of "output goes at the pace of most of its readers" (the edge's half and the
 * rule's drawing: services/edge/src/ws/output-flow): it holds the PTY's output
 * while every edge with members of the session says most of its readers are behind, and lets it flow
 * as soon as one edge says otherwise, an edge without such a report gets a member, or a report
 * lapses (PACE_REPORT_TTL_MS: edges repeat theirs every PACE_REFRESH_MS, so only an edge that died
 * or lost its link lets one lapse).
 */
export class ReaderPace implements Disposable {
  /** Edge id → monotonic time its report lapses. */
  private readonly behind = new Map<string, number>();
  private holding = false;
  private disposed = false;
  private timer: ClockTimer | undefined;

  constructor(private readonly opts: ReaderPaceOptions) {}

  /** An edge's report (SessionControl.pace). */
  report(edgeId: string, behind: boolean): void {
    if (this.disposed) return;
    if (behind) this.behind.set(edgeId, this.opts.clock.monotonic() + PACE_REPORT_TTL_MS);
    else this.behind.delete(edgeId);
    this.evaluate();
  }

  /** Members joined, left or went with their edge: the set of edges to wait for changed. */
  membersChanged(): void {
    if (!this.disposed) this.evaluate();
  }

  get held(): boolean {
    return this.holding;
  }

  /** For good: output flows and later reports are ignored (the session is ending). */
  dispose(): void {
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.behind.clear();
    this.set(false);
  }

  private evaluate(): void {
    const now = this.opts.clock.monotonic();
    let edges = 0;
    let lapsesAt = Number.POSITIVE_INFINITY;
    let hold = true;
    for (const edgeId of new Set(this.opts.memberEdges())) {
      edges++;
      const until = this.behind.get(edgeId);
      if (until === undefined || until <= now) {
        hold = false;
        break;
      }
      lapsesAt = Math.min(lapsesAt, until);
    }
    hold &&= edges > 0;
    this.timer?.cancel();
    this.timer = undefined;
    if (hold) this.timer = this.opts.clock.setTimeout(() => this.evaluate(), lapsesAt - now).unref();
    this.set(hold);
  }

  private set(hold: boolean): void {
    if (hold === this.holding) return;
    this.holding = hold;
    this.opts.onChange(hold);
  }
}
