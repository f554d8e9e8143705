import type { NatsConnection } from '@nats-io/transport-node';

/** What batching uses of nats.js 3's protocol handler (`nc.protocol`). */
interface ProtocolInternals {
  flushPending(): void;
  /** The buffer not yet written, and the size past which nats.js writes it inline. */
  outbound: { size(): number };
  pendingLimit: number;
}

/**
 * One socket write per connection per event-loop turn instead of one per callback.
 *
 * nats.js writes a connection's buffer to its socket in a microtask after the first command
 * queued into an empty buffer, so every event handled (a PTY read, an input request, an ack)
 * made its own write syscall. Loopback writes are expensive here: in an agent profile of 50
 * sessions typing over NATS they took 28 % of the event loop. The buffer is now written once the
 * turn's I/O callbacks have run (setImmediate), which joins what they published into one write;
 * a single keystroke's publish still leaves in the turn that made it. `flush()` and `drain()`
 * (how the services close) still send everything before they resolve: their PING is written
 * behind it. A buffer past nats.js's `pendingLimit` is still written at once, as the library
 * does, so a turn that publishes a lot does not hold it all in memory.
 *
 * A no-op when the client's internals are not the expected ones (another nats.js version): the
 * connection then works exactly as the library does.
 */
export function batchWritesPerTurn(nc: NatsConnection): void {
  const protocol = (nc as unknown as { protocol?: Partial<ProtocolInternals> }).protocol;
  if (!protocol || typeof protocol.flushPending !== 'function') return;
  const flushNow = protocol.flushPending.bind(protocol);
  const full = (): boolean =>
    typeof protocol.pendingLimit === 'number' &&
    typeof protocol.outbound?.size === 'function' &&
    protocol.outbound.size() >= protocol.pendingLimit;
  let scheduled: NodeJS.Immediate | undefined;
  protocol.flushPending = () => {
    if (full()) {
      flushNow(); // a scheduled flush then finds the buffer empty: harmless
      return;
    }
    scheduled ??= setImmediate(() => {
      scheduled = undefined;
      flushNow();
    });
  };
}
