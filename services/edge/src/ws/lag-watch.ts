import type { Disposable } from '@pty-ws/ports';
import type { Conn } from './connection';

/** How often lagged connections are checked for a drained socket. */
const LAG_WATCH_MS = 100;

/**
 * A hub's own look at its lagged connections, polled while any is lagged: each is offered for a
 * resume, which goes ahead only once its socket has drained.
 * uWS's drain event resumes them too; this makes sure a lag never rests on that one event (in the
 * cluster fan-out bench some observers stayed lagged for good).
 */
export class LagWatch implements Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly conns: Iterable<Conn>,
    /** Called for each lagged connection: it resumes the ones whose socket drained (SessionHub.drained). */
    private readonly onDrained: ((conn: Conn) => void) | undefined,
  ) {}

  /** A connection just lagged: watch until none is. */
  start(): void {
    if (this.timer || !this.onDrained) return;
    this.timer = setInterval(() => this.check(), LAG_WATCH_MS);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
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
