import type { Envelope } from '@pty-ws/protocol';
import { PtyWsError } from './errors';
import type { Clock, ClockTimer } from './clock';

interface Pending {
  op: string;
  /** Op of the frame that answers (e.g. `GetTask.Response`); undefined when settled by hand. */
  expects: string | undefined;
  /**
   * Runs synchronously inside frame dispatch. Needed because a server may send follow-up frames
   * (e.g. TaskStatusUpdate after SendStreamingMessage.Accepted) in the same tick, before any
   * promise continuation runs; whatever must exist to route them is created here.
   */
  map: (frame: Envelope<unknown>) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: PtyWsError) => void;
  timer: ClockTimer;
}

/** Correlates request frames with their answers by `id` (binding §3: responses echo the id). */
export class RequestTracker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly clock: Clock) {}

  /**
   * Registers a request before it is sent. With `expects`, a frame of that op and id resolves it
   * through `map`; an `Error` frame with the id rejects it in any case.
   */
  track<T>(
    id: string,
    op: string,
    timeoutMs: number,
    expects?: string,
    map: (frame: Envelope<unknown>) => T = (frame) => frame as T,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.pending.delete(id);
        reject(
          new PtyWsError('TIMEOUT', `${op} timed out after ${timeoutMs} ms`, { requestId: id, op, retryable: true }),
        );
      }, timeoutMs);
      this.pending.set(id, { op, expects, map, resolve: resolve as (v: unknown) => void, reject, timer });
    });
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  opOf(id: string): string | undefined {
    return this.pending.get(id)?.op;
  }

  /** Settles the request a frame answers, if any. Returns true when the frame was consumed. */
  settleFromFrame(frame: Envelope<unknown>): boolean {
    const p = this.pending.get(frame.id);
    if (!p) return false;
    if (frame.op === 'Error') {
      this.reject(frame.id, PtyWsError.fromPayload(frame.payload, frame.id, p.op));
      return true;
    }
    if (p.expects === undefined || frame.op !== p.expects) return false;
    this.take(frame.id);
    try {
      p.resolve(p.map(frame));
    } catch (err) {
      p.reject(
        err instanceof PtyWsError
          ? err
          : new PtyWsError('PROTOCOL_ERROR', `bad ${frame.op}: ${String(err)}`, {
              requestId: frame.id,
              op: p.op,
              cause: err,
            }),
      );
    }
    return true;
  }

  resolve(id: string, value: unknown): void {
    this.take(id)?.resolve(value);
  }

  reject(id: string, err: PtyWsError): void {
    this.take(id)?.reject(err);
  }

  /** Fails every request in flight, e.g. when the connection drops. */
  rejectAll(makeError: (id: string, op: string) => PtyWsError): void {
    for (const id of [...this.pending.keys()]) this.reject(id, makeError(id, this.pending.get(id)?.op ?? ''));
  }

  /** The connection closed: every request in flight fails (for good when the session itself closed). */
  failOnClose(closeCode: number, sessionClosed: boolean): void {
    this.rejectAll((id, op) =>
      sessionClosed
        ? new PtyWsError('SESSION_CLOSED', `the session has closed (before ${op} completed)`, {
            requestId: id,
            op,
            closeCode,
            retryable: false,
          })
        : new PtyWsError('CONNECTION_CLOSED', `connection closed before ${op} completed`, {
            requestId: id,
            op,
            closeCode,
            retryable: true,
          }),
    );
  }

  private take(id: string): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    p.timer.cancel();
    return p;
  }
}
