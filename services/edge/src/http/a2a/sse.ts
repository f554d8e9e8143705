import type { HttpResponse } from '../../uws';
import type { Out } from './a2a-respond';

/** Comment lines keep idle streams open through proxies that time out silent connections. */
const HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response on uWS: headers on the first write, one `data:` event per
 * message, a heartbeat comment while idle, `end()` when the stream is over. Writes after the
 * client went away are dropped (uWS forbids touching an aborted response).
 */
export class SseWriter {
  private started = false;
  private ended = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly out: Out & { res: HttpResponse }) {
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** One event; `event` names it (`error`), otherwise it is a plain message. */
  send(data: unknown, event?: string): void {
    this.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (this.ended) return;
    this.ended = true;
    if (this.out.aborted) return;
    this.out.aborted = true;
    const { res } = this.out;
    res.cork(() => {
      if (!this.started) this.head(res);
      res.end();
    });
  }

  private write(chunk: string): void {
    if (this.ended || this.out.aborted) return;
    const { res } = this.out;
    res.cork(() => {
      if (!this.started) this.head(res);
      res.write(chunk);
    });
  }

  private head(res: HttpResponse): void {
    this.started = true;
    res.writeStatus('200 OK');
    res.writeHeader('content-type', 'text/event-stream');
    res.writeHeader('cache-control', 'no-cache');
    res.writeHeader('x-accel-buffering', 'no');
  }
}

/**
 * Streams `events` as SSE, one `data:` event each (`toData`), a failure mid-stream as a last event
 * (`toError`). The first event is pulled before any byte is written, so a request that fails up
 * front rejects here and its binding answers with a plain error response instead.
 */
export async function streamSse<T>(
  out: Out & { res: HttpResponse },
  events: AsyncIterable<T>,
  toData: (event: T) => unknown,
  toError: (err: unknown) => { data: unknown; event?: string },
): Promise<void> {
  const it = events[Symbol.asyncIterator]();
  const first = await it.next();
  const sse = new SseWriter(out);
  try {
    for (let r = first; !r.done; r = await it.next()) sse.send(toData(r.value));
  } catch (err) {
    const { data, event } = toError(err);
    sse.send(data, event);
  } finally {
    await it.return?.();
    sse.end();
  }
}
