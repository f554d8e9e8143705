import { PtyWsError } from './errors';
import type { ConnectionState } from './events';
import type { Clock, ClockTimer } from './clock';

interface Waiter {
  resolve: () => void;
  reject: (err: PtyWsError) => void;
  timer: ClockTimer;
}

/**
 * Holds calls made while the client is connecting or reconnecting until it is open again, so ops
 * issued before `binding_hello` (or during a reconnect) are sent only once that is safe.
 */
export class OpenGate {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly clock: Clock) {}

  /** Resolves at once when `state` is open, fails when the client is not connecting, else waits. */
  whenOpen(state: ConnectionState, timeoutMs: number): Promise<void> {
    if (state === 'open') return Promise.resolve();
    if (state === 'idle' || state === 'closed') {
      return Promise.reject(new PtyWsError('NOT_CONNECTED', `client is ${state}; call connect() first`));
    }
    return this.wait(timeoutMs);
  }

  /** Resolves when open() is called, rejects on fail() or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: this.clock.setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new PtyWsError('TIMEOUT', `not connected within ${timeoutMs} ms`, { retryable: true }));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  open(): void {
    for (const w of this.take()) w.resolve();
  }

  fail(err: PtyWsError): void {
    for (const w of this.take()) w.reject(err);
  }

  private take(): Waiter[] {
    const all = [...this.waiters];
    this.waiters.clear();
    for (const w of all) w.timer.cancel();
    return all;
  }
}
