import { systemClock, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';
import { afterIo } from '../next-turn';
import type { Conn } from './connection';

export interface KeepaliveOptions {
  /** The open connections, read at every round. */
  conns: () => Iterable<Conn>;
  /** PTYWS_PING_INTERVAL_MS: between ping rounds. */
  pingIntervalMs: number;
  /** PTYWS_PONG_TIMEOUT_MS: how long a ping may go unanswered. */
  pongTimeoutMs: number;
  /** A connection whose ping went unanswered past the timeout: the caller ends it. */
  onStale: (conn: Conn) => void;
  clock?: Clock;
}

/**
 * Keepalive (binding §2.4): a ping to every connection each interval; a connection whose oldest
 * unanswered ping is older than the pong timeout is stale. The final check runs on a later turn
 * (afterIo), i.e. after pending I/O was read: after an event-loop stall the timer fires before
 * the pongs that arrived meanwhile are processed, and healthy sockets would otherwise be reaped
 * with the dead.
 */
export class Keepalive implements Disposable {
  private readonly clock: Clock;
  private readonly timer: ClockTimer;

  constructor(private readonly opts: KeepaliveOptions) {
    this.clock = opts.clock ?? systemClock;
    this.timer = this.clock.setInterval(() => this.round(), opts.pingIntervalMs).unref();
  }

  /** The peer answered: no ping of it is outstanding any more. */
  pong(conn: Conn): void {
    conn.pingOutstandingSince = undefined;
  }

  dispose(): void {
    this.timer.cancel();
  }

  private round(): void {
    const now = this.clock.monotonic();
    const suspects: Conn[] = [];
    for (const conn of this.opts.conns()) {
      if (!conn.ws || !conn.open) continue;
      if (conn.pingOutstandingSince === undefined) conn.pingOutstandingSince = now;
      else if (this.overdue(conn, now)) suspects.push(conn);
      conn.ws.ping();
    }
    if (suspects.length > 0) afterIo(() => suspects.forEach((conn) => this.reap(conn)));
  }

  private reap(conn: Conn): void {
    if (!conn.ws || !conn.open || !this.overdue(conn, this.clock.monotonic())) return;
    this.opts.onStale(conn);
  }

  private overdue(conn: Conn, now: number): boolean {
    return conn.pingOutstandingSince !== undefined && now - conn.pingOutstandingSince > this.opts.pongTimeoutMs;
  }
}
