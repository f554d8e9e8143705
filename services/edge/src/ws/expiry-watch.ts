import type { Disposable } from '@pty-ws/ports';

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
  private readonly timers = new Map<Conn, NodeJS.Timeout>();

  constructor(
    private readonly onExpired: (conn: Conn) => void,
    private readonly now: () => number = Date.now,
  ) {}

  watch(conn: Conn): void {
    const expiresAt = conn.principal.expiresAt;
    if (expiresAt === undefined) return;
    this.forget(conn);
    const wait = expiresAt - this.now();
    if (wait <= 0) return this.onExpired(conn);
    const timer = setTimeout(
      () => {
        this.timers.delete(conn);
        if (this.now() >= expiresAt) this.onExpired(conn);
        else this.watch(conn);
      },
      Math.min(wait, MAX_DELAY_MS),
    );
    timer.unref();
    this.timers.set(conn, timer);
  }

  forget(conn: Conn): void {
    const timer = this.timers.get(conn);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(conn);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

/** Anything held open on behalf of a principal whose token may expire. */
export interface Expiring {
  readonly principal: { readonly expiresAt?: number };
}
