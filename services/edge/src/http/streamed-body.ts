import type { Responder } from './respond';
import { trackingOf } from './response-tracking';

/**
 * A response body written in parts as they are produced (chunked transfer encoding), at the pace
 * the client reads: `write` resolves once uWS has taken the part without backpressure, or once
 * the socket drained what it buffered, so at most about one part waits in memory per response.
 * A client that stops reading is closed by uWS's own timeout on a stalled write (onAborted then
 * resolves the waiting write with `false`).
 */
export class StreamedBody {
  private started = false;
  private ended = false;
  private resume: (() => void) | undefined;

  constructor(
    private readonly r: Responder,
    private readonly head: { status: string; headers: Record<string, string> },
  ) {
    const wake = () => {
      const resume = this.resume;
      this.resume = undefined;
      resume?.();
    };
    const tracking = trackingOf(r.res);
    if (tracking) tracking.onAborted(wake);
    else
      r.res.onAborted(() => {
        r.aborted = true;
        wake();
      });
    r.res.onWritable(() => {
      // Resume outside uWS's drain handler: a write from inside it that the kernel takes only in
      // part can leave the socket's writable poll disarmed (this uWS build, see uws.ts).
      if (this.resume) setImmediate(wake);
      return true;
    });
  }

  /**
   * Writes one part (the status line and headers first); false when the client went away. uWS
   * sends or copies the part before this returns, so the caller may reuse its buffer at once.
   */
  async write(part: string | Uint8Array): Promise<boolean> {
    if (this.r.aborted || this.ended) return false;
    if (part.length === 0) return true; // an empty chunk would end the body
    let drained = true;
    this.r.res.cork(() => {
      this.writeHead();
      drained = this.r.res.write(part);
    });
    if (!drained) await new Promise<void>((resolve) => (this.resume = resolve));
    return !this.r.aborted;
  }

  /** Ends the body (or, when nothing was written yet, the whole response). */
  end(): void {
    if (this.r.aborted || this.ended) return;
    this.ended = true;
    this.r.res.cork(() => {
      this.writeHead();
      this.r.res.end();
    });
  }

  /**
   * Cuts the response short after a failure mid-body: the connection is closed without the last
   * chunk, so the client sees an incomplete body rather than a complete-looking one.
   */
  fail(): void {
    if (this.r.aborted || this.ended) return;
    this.ended = true;
    this.r.res.close();
  }

  get headWritten(): boolean {
    return this.started;
  }

  private writeHead(): void {
    if (this.started) return;
    this.started = true;
    this.r.res.writeStatus(this.head.status);
    for (const [k, v] of Object.entries(this.head.headers)) this.r.res.writeHeader(k, v);
  }
}
