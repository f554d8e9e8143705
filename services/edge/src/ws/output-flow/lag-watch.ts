import { LAG_WATCH_MS, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';
import type { Conn } from '../connection';

/**
 * A hub's own look at its lagged connections, polled while any is lagged: each is offered for a
 * resume, which goes ahead only once its socket has drained.
 * uWS's drain event resumes them too; this makes sure a lag never rests on that one event (in the
 * cluster fan-out bench some observers stayed lagged for good).
 */
export class LagWatch implements Disposable {
  private timer: ClockTimer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly conns: Iterable<Conn>,
    /** Called for each lagged connection: it resumes the ones whose socket drained (SessionHub.drained). */
    private readonly onDrained: ((conn: Conn) => void) | undefined,
  ) {}

  /** A connection just lagged: watch until none is. */
  start(): void {
    if (this.timer || !this.onDrained) return;
    this.timer = this.clock.setInterval(() => this.check(), LAG_WATCH_MS).unref();
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private check(): void {
    let lagged = 0;
    for (const conn of this.conns) {
      if (conn.feed !== 'lagged') continue;
      lagged++;
      if (conn.open) this.onDrained?.(conn);
    }
    if (lagged === 0) this.dispose();
  }
}
