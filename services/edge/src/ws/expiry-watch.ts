import { systemClock, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';

/** setTimeout's ceiling (~24.8 days): longer waits are taken in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Ends connections when their token expires. Expiry is checked at upgrade; a socket opened just
 * before it would otherwise keep observing (and typing) for as long as it stays open. One timer
 * per expiry instant, shared by the connections that expire then (a token's connections do), not
 * one per connection: a timer and its closures cost an idle socket about 300 bytes. It is cleared
 * when its last connection closes; `onExpired` says goodbye the way a revocation does
 * (binding_goodbye principal_revoked, close 4401). A2A streams (SSE, gRPC) are watched the same
 * way (stream-watch.ts).
 */
export class ExpiryWatch<Conn extends Expiring> implements Disposable {
  private readonly groups = new Map<number, { conns: Set<Conn>; timer: ClockTimer }>();

  constructor(
    private readonly onExpired: (conn: Conn) => void,
    /** Expiry is wall-clock time (`now()`), as the token's `exp` is. */
    private readonly clock: Clock = systemClock,
  ) {}

  watch(conn: Conn): void {
    const expiresAt = conn.principal.expiresAt;
    if (expiresAt === undefined) return;
    this.forget(conn);
    if (expiresAt - this.clock.now() <= 0) return this.onExpired(conn);
    let group = this.groups.get(expiresAt);
    if (!group) {
      group = { conns: new Set(), timer: this.arm(expiresAt) };
      this.groups.set(expiresAt, group);
    }
    group.conns.add(conn);
  }

  forget(conn: Conn): void {
    const expiresAt = conn.principal.expiresAt;
    if (expiresAt === undefined) return;
    const group = this.groups.get(expiresAt);
    if (!group?.conns.delete(conn) || group.conns.size > 0) return;
    group.timer.cancel();
    this.groups.delete(expiresAt);
  }

  dispose(): void {
    for (const group of this.groups.values()) group.timer.cancel();
    this.groups.clear();
  }

  private arm(expiresAt: number): ClockTimer {
    const wait = expiresAt - this.clock.now();
    return this.clock.setTimeout(() => this.fire(expiresAt), Math.min(wait, MAX_DELAY_MS)).unref();
  }

  /** The group's timer ran out: ends its connections, or waits on when that was only a step. */
  private fire(expiresAt: number): void {
    const group = this.groups.get(expiresAt);
    if (!group) return;
    if (this.clock.now() < expiresAt) {
      group.timer = this.arm(expiresAt);
      return;
    }
    // Out of the map first: the goodbyes call `forget`, which then finds nothing to change.
    this.groups.delete(expiresAt);
    for (const conn of group.conns) this.onExpired(conn);
  }
}

/** Anything held open on behalf of a principal whose token may expire. */
export interface Expiring {
  readonly principal: { readonly expiresAt?: number };
}
