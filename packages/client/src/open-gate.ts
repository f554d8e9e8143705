import { PtyWsError } from './errors';
import { clearTimer, setTimer, type TimerHandle } from './runtime';

interface Waiter {
  resolve: () => void;
  reject: (err: PtyWsError) => void;
  timer: TimerHandle;
}

/**
 * Holds calls made while the client is connecting or reconnecting until it is open again, so ops
 * issued before `binding_hello` (or during a reconnect) are sent only once that is safe.
 */
export class OpenGate {
  private readonly waiters = new Set<Waiter>();

  /** Resolves when open() is called, rejects on fail() or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimer(() => {
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
    for (const w of all) clearTimer(w.timer);
    return all;
  }
}
