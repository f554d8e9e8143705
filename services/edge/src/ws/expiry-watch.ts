import { systemClock, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';

/** setTimeout's ceiling (~24.8 days): longer waits are taken in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Ends connections when their token expires. Expiry is checked at upgrade; a socket opened just
 * before it would otherwise keep observing (and typing) for as long as it stays open. Each
 * connection of an expiring token gets one timer, cleared when the socket closes; `onExpired`
 * says goodbye the way a revocation does (binding_goodbye principal_revoked, close 4401).
 * A2A streams (SSE, gRPC) are watched the same way (stream-watch.ts).
 */
export class ExpiryWatch<Conn extends Expiring> implements Disposable {
  private readonly timers = new Map<Conn, ClockTimer>();

  constructor(
    private readonly onExpired: (conn: Conn) => void,
    /** Expiry is wall-clock time (`now()`), as the token's `exp` is. */
    private readonly clock: Clock = systemClock,
  ) {}

  watch(conn: Conn): void {
    const expiresAt = conn.principal.expiresAt;
    if (expiresAt === undefined) return;
    this.forget(conn);
    const wait = expiresAt - this.clock.now();
    if (wait <= 0) return this.onExpired(conn);
    const timer = this.clock
      .setTimeout(
        () => {
          this.timers.delete(conn);
          if (this.clock.now() >= expiresAt) this.onExpired(conn);
          else this.watch(conn);
        },
        Math.min(wait, MAX_DELAY_MS),
      )
      .unref();
    this.timers.set(conn, timer);
  }

  forget(conn: Conn): void {
    const timer = this.timers.get(conn);
    if (timer === undefined) return;
    timer.cancel();
    this.timers.delete(conn);
  }

  dispose(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }
}

/** Anything held open on behalf of a principal whose token may expire. */
export interface Expiring {
  readonly principal: { readonly expiresAt?: number };
}
