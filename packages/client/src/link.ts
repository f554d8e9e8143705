import type { BindingHelloPayload, ServiceParameters } from '@pty-ws/protocol';
import { clientFrame, EXTENSION_URI } from '@pty-ws/protocol';
import type { Clock, ClockTimer } from './clock';
import { Connection, type ConnectionSink } from './connection';
import { PtyWsError } from './errors';
import type { ResolvedOptions } from './options';

/**
 * The client's current WebSocket: opens a Connection per (re)connect, routes only the current
 * one's frames and close to the sink (a superseded socket's late events are dropped), and keeps
 * the last `binding_hello`.
 */
export class Link {
  /** The connection frames are sent on; undefined between a close and the next open. */
  conn: Connection | undefined;
  /** The `binding_hello` payload of the current (or last) connection. */
  hello: BindingHelloPayload | undefined;
  /** The last attempt's socket was dropped right after the upgrade (Connection.droppedAfterUpgrade). */
  private lastAttemptDropped = false;

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly clock: Clock,
    private readonly sink: ConnectionSink & { hello(hello: BindingHelloPayload): void },
    /** True once leave()/close() was called: a connection that opens then is closed again. */
    private readonly stopping: () => boolean,
    private readonly serviceParameters: () => ServiceParameters | undefined,
  ) {}

  /**
   * One connection attempt, opened once more at once if the server dropped the socket right after
   * accepting it: the uWS build the edge runs on does so to about one attach in a thousand in
   * cluster mode (ARCHITECTURE.md, "Known defect: dropped attaches"). A second drop is reported.
   */
  async open(): Promise<BindingHelloPayload> {
    try {
      return await this.openOnce();
    } catch (err) {
      if (!this.lastAttemptDropped || this.stopping()) throw err;
      return this.openOnce();
    }
  }

  /** Sends `pty.leave_session` and waits (at most `timeoutMs`) for the server to close. */
  async leave(timeoutMs: number): Promise<void> {
    const conn = this.conn;
    if (!conn?.isOpen) return;
    let timer: ClockTimer | undefined;
    try {
      conn.send(clientFrame('pty.leave_session', {}));
      const timeout = new Promise<void>((resolve) => (timer = this.clock.setTimeout(resolve, timeoutMs)));
      await Promise.race([conn.closed, timeout]);
    } catch {
      // The socket went away in between: leaving is done either way.
    } finally {
      timer?.cancel();
    }
  }

  /** Sends a frame exactly as given (no first-frame extras). */
  sendRaw(data: string | Uint8Array): void {
    const conn = this.conn;
    if (!conn) throw new PtyWsError('NOT_CONNECTED', 'not connected', { retryable: true });
    if (typeof data === 'string') conn.sendText(data);
    else conn.sendBinary(data);
  }

  /** Closes the current connection (if any) and forgets it. */
  drop(reason: string): void {
    const conn = this.conn;
    this.conn = undefined;
    conn?.close(1000, reason);
  }

  private async openOnce(): Promise<BindingHelloPayload> {
    this.lastAttemptDropped = false;
    const opts = this.opts;
    const conn: Connection = new Connection(
      {
        url: opts.url,
        protocols: opts.protocols,
        expectedProtocol: opts.expectedProtocol,
        headers: opts.headers,
        WebSocket: opts.WebSocket,
        helloTimeoutMs: opts.connectTimeoutMs,
        clock: this.clock,
        firstFrameExtras: () => {
          const params = this.serviceParameters();
          return {
            extensions: [EXTENSION_URI, ...opts.extensions.filter((e) => e !== EXTENSION_URI)],
            ...(params ? { service_parameters: params } : {}),
          };
        },
      },
      {
        frame: (f) => this.conn === conn && this.sink.frame(f),
        output: (o) => this.conn === conn && this.sink.output(o),
        protocolError: (e) => this.conn === conn && this.sink.protocolError(e),
        close: (info) => {
          if (this.conn !== conn) return;
          this.conn = undefined;
          this.sink.close(info);
        },
      },
    );
    this.conn = conn;
    let hello: BindingHelloPayload;
    try {
      hello = await conn.ready;
    } catch (err) {
      if (this.conn === conn) this.conn = undefined;
      this.lastAttemptDropped = conn.droppedAfterUpgrade;
      throw err;
    }
    if (this.stopping() || this.conn !== conn) {
      conn.close(1000, 'client closed');
      throw new PtyWsError('NOT_CONNECTED', 'client closed while connecting');
    }
    this.hello = hello;
    this.sink.hello(hello);
    return hello;
  }
}
