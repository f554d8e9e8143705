import type { BindingHelloPayload, DecodedOutput, Envelope, ServiceParameters } from '@pty-ws/protocol';
import { decodeOutputFrame } from '@pty-ws/protocol';
import { fatalCloseError, PtyWsError } from './errors';
import type { Clock, ClockTimer } from './clock';
import type { CloseEventLike, MessageEventLike, WebSocketCtor, WebSocketLike } from './websocket';
import { WS_OPEN } from './websocket';
import { parseServerFrame, toBytes, type ServerFrame } from './wire';

export interface ConnectionConfig {
  url: string;
  protocols: string[];
  expectedProtocol: string;
  headers: Record<string, string> | undefined;
  WebSocket: WebSocketCtor;
  helloTimeoutMs: number;
  clock: Clock;
  /** Extension URIs and service parameters for the first client frame (binding §3), read when it is sent. */
  firstFrameExtras: () => { extensions: string[]; service_parameters?: ServiceParameters };
}

/** What the connection reports after `binding_hello`; before that, failures reject `ready`. */
export interface ConnectionSink {
  frame(frame: ServerFrame): void;
  output(output: DecodedOutput): void;
  /** A server frame the SDK cannot use; the connection stays up. */
  protocolError(err: PtyWsError): void;
  close(info: CloseInfo): void;
}

export interface CloseInfo {
  code: number;
  reason: string;
  /** HTTP status of a refused upgrade, when the WebSocket implementation exposes it (`ws` does). */
  httpStatus?: number;
  /** Set when reconnecting cannot help (auth, not found, protocol violation). */
  fatal?: PtyWsError;
}

/** `ws` reports a refused upgrade as an error event "Unexpected server response: 401". */
function httpStatusOf(message: string): number | undefined {
  const m = /Unexpected server response: (\d{3})/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** `ws` refuses a missing or never-offered subprotocol echo itself; that is no transient fault. */
function subprotocolFailure(message: string): PtyWsError | undefined {
  if (!/subprotocol/i.test(message)) return undefined;
  return new PtyWsError('PROTOCOL_ERROR', message);
}

/**
 * One WebSocket attempt: negotiates the subprotocol, insists on `binding_hello` as the first frame
 * (binding §5.1), then hands frames to the sink. Reconnecting means making a new Connection.
 */
export class Connection {
  readonly ready: Promise<BindingHelloPayload>;
  readonly closed: Promise<CloseInfo>;
  hello: BindingHelloPayload | undefined;
  /**
   * The server accepted the upgrade and closed the socket (1006) before sending any frame: nothing
   * was exchanged, so opening it again is safe.
   */
  droppedAfterUpgrade = false;

  private ws: WebSocketLike | undefined;
  private opened = false;
  private anyFrame = false;
  private firstSent = false;
  private helloTimer: ClockTimer | undefined;
  private errorMessage = '';
  /** Why we closed the socket ourselves, reported instead of the bare close code. */
  private localFailure: PtyWsError | undefined;
  private resolveReady!: (hello: BindingHelloPayload) => void;
  private rejectReady!: (err: PtyWsError) => void;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(
    private readonly cfg: ConnectionConfig,
    private readonly sink: ConnectionSink,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    // Nobody may be awaiting `ready` yet when it fails synchronously below.
    this.ready.catch(() => undefined);

    try {
      const ws = cfg.headers
        ? new cfg.WebSocket(cfg.url, cfg.protocols, { headers: cfg.headers })
        : new cfg.WebSocket(cfg.url, cfg.protocols);
      ws.binaryType = 'arraybuffer';
      ws.onopen = () => this.onOpen();
      ws.onmessage = (ev: MessageEventLike) => this.onMessage(ev.data);
      ws.onerror = (ev: unknown) => this.onError(ev);
      ws.onclose = (ev: CloseEventLike) => this.onClose(ev);
      this.ws = ws;
    } catch (err) {
      const e = new PtyWsError('CONNECT_FAILED', `cannot open WebSocket: ${String(err)}`, { cause: err });
      this.rejectReady(e);
      this.resolveClosed({ code: 1006, reason: e.message, fatal: e });
      return;
    }
    this.helloTimer = cfg.clock.setTimeout(
      () =>
        this.fail(
          new PtyWsError('CONNECT_FAILED', `no binding_hello within ${cfg.helloTimeoutMs} ms`, { retryable: true }),
          1000,
        ),
      cfg.helloTimeoutMs,
    );
  }

  get isOpen(): boolean {
    return this.ws?.readyState === WS_OPEN;
  }

  /** Sends a JSON frame; the first one on the connection carries `extensions` and `service_parameters`. */
  send(frame: Envelope<unknown>): void {
    const ws = this.openSocket(frame.op);
    let out = frame;
    if (!this.firstSent) {
      const extras = this.cfg.firstFrameExtras();
      out = { ...frame, extensions: extras.extensions };
      if (extras.service_parameters) out.service_parameters = extras.service_parameters;
      this.firstSent = true;
    }
    ws.send(JSON.stringify(out));
  }

  /** Sends a binary frame as is (PW1I input, or raw bytes from sendRaw). */
  sendBinary(bytes: Uint8Array): void {
    this.openSocket('binary frame').send(bytes);
  }

  /** Sends a text frame as is, without first-frame extras (diagnostics and protocol tests). */
  sendText(text: string): void {
    this.openSocket('text frame').send(text);
  }

  close(code = 1000, reason = ''): void {
    this.helloTimer?.cancel();
    try {
      this.ws?.close(code, reason);
    } catch {
      this.ws?.close();
    }
  }

  private openSocket(what: string): WebSocketLike {
    if (!this.ws || this.ws.readyState !== WS_OPEN) {
      throw new PtyWsError('NOT_CONNECTED', `cannot send ${what}: the WebSocket is not open`, { retryable: true });
    }
    return this.ws;
  }

  private onOpen(): void {
    this.opened = true;
    const selected = this.ws?.protocol ?? '';
    if (selected !== this.cfg.expectedProtocol) {
      // Binding §2.2: the server echoes exactly the PTY token it accepted; anything else (including
      // an echoed bearer token) means we cannot trust the framing.
      this.fail(
        new PtyWsError(
          'PROTOCOL_ERROR',
          `server selected subprotocol '${selected}', expected '${this.cfg.expectedProtocol}'`,
        ),
        4400,
      );
    }
  }

  private onMessage(data: unknown): void {
    this.anyFrame = true;
    // After we refused the connection, frames still in flight (often the hello) must not revive it.
    if (this.localFailure) return;
    if (typeof data === 'string') {
      const frame = parseServerFrame(data);
      if (!frame) {
        const err = new PtyWsError('PROTOCOL_ERROR', 'server sent a text frame that is not a JSON envelope');
        return this.hello ? this.sink.protocolError(err) : this.fail(err, 4400);
      }
      if (!this.hello) return this.onFirstFrame(frame);
      return this.sink.frame(frame);
    }
    const bytes = toBytes(data);
    if (!this.hello || !bytes) {
      return this.fail(new PtyWsError('PROTOCOL_ERROR', 'server sent binary data before binding_hello'), 4400);
    }
    let output: DecodedOutput;
    try {
      output = decodeOutputFrame(bytes);
    } catch (err) {
      return this.sink.protocolError(
        new PtyWsError('PROTOCOL_ERROR', `bad binary frame: ${String(err)}`, { cause: err }),
      );
    }
    this.sink.output(output);
  }

  private onFirstFrame(frame: ServerFrame): void {
    if (frame.op !== 'binding_hello' || typeof frame.payload !== 'object' || frame.payload === null) {
      return this.fail(
        new PtyWsError('PROTOCOL_ERROR', `first server frame was '${frame.op}', expected binding_hello`),
        4400,
      );
    }
    this.helloTimer?.cancel();
    this.hello = frame.payload as BindingHelloPayload;
    this.resolveReady(this.hello);
  }

  private onError(ev: unknown): void {
    const message = (ev as { message?: unknown } | null)?.message;
    if (typeof message === 'string') this.errorMessage = message;
  }

  private onClose(ev: CloseEventLike): void {
    this.helloTimer?.cancel();
    const code = typeof ev.code === 'number' ? ev.code : 1006;
    const reason = typeof ev.reason === 'string' && ev.reason ? ev.reason : this.errorMessage;
    const info: CloseInfo = { code, reason };
    const httpStatus = httpStatusOf(this.errorMessage);
    if (httpStatus !== undefined) info.httpStatus = httpStatus;
    const fatal =
      this.localFailure?.retryable === false
        ? this.localFailure
        : (fatalCloseError(code, reason, httpStatus) ?? subprotocolFailure(this.errorMessage));
    if (fatal) info.fatal = fatal;
    this.droppedAfterUpgrade =
      !this.hello && this.opened && !this.anyFrame && code === 1006 && !fatal && !this.localFailure;
    if (!this.hello) {
      this.rejectReady(
        fatal ??
          this.localFailure ??
          new PtyWsError(
            'CONNECT_FAILED',
            `connection closed before binding_hello (${code}${reason ? ` ${reason}` : ''})`,
            { closeCode: code, retryable: true },
          ),
      );
    } else {
      this.sink.close(info);
    }
    this.resolveClosed(info);
  }

  private fail(err: PtyWsError, code: number): void {
    this.localFailure ??= err;
    this.close(code, err.message.slice(0, 120));
  }
}
