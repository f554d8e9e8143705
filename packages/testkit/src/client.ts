/**
 * A raw test WebSocket client on `ws`: it buffers every frame the server sends and lets a test
 * wait for frames by predicate. It deliberately does not use the project's client SDK, so the
 * conformance suite checks the wire, not a second implementation of it.
 */
import WebSocket from 'ws';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import {
  EXTENSION_URI,
  clientFrame,
  encodeBase64,
  encodeInputFrame,
  type BindingHelloPayload,
  type Envelope,
} from '@pty-ws/protocol';
import {
  describeFrame,
  is,
  outputBytes,
  receivedFrame,
  type FramePredicate,
  type Received,
  type ServerEnvelope,
} from './frames';
import { SequenceWatch } from './sequence';
import { headersOf, protocolsOf, UpgradeRejected, type ConnectOptions } from './upgrade';

export { bearerSubprotocol, tryUpgrade, UpgradeRejected, type ConnectOptions, type UpgradeOutcome } from './upgrade';

export interface CloseInfo {
  code: number;
  reason: string;
}

export class TestClient {
  /** Every frame received, in arrival order. */
  readonly frames: Received[] = [];
  readonly closed: Promise<CloseInfo>;
  /** Raw `Sec-WebSocket-Protocol` header of the upgrade response. */
  protocolHeader: string | undefined;
  private cursor = 0;
  private waiters = new Set<() => void>();
  private firstFrameSent = false;
  private closeInfo: CloseInfo | undefined;
  /** `sequence` must never decrease on this connection (README interpretation 1). */
  private readonly sequence = new SequenceWatch();

  private constructor(
    readonly ws: WebSocket,
    private readonly opts: ConnectOptions,
  ) {
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    this.closed = new Promise((resolve) => {
      ws.on('close', (code: number, reason: Buffer) => {
        this.closeInfo = { code, reason: reason.toString('utf8') };
        this.wake();
        resolve(this.closeInfo);
      });
    });
    // A 1006 close says nothing by itself: keep the socket error (bad frame, reset…) to report it.
    ws.on('error', (err: Error) => {
      this.socketError ??= err.message;
    });
  }

  /** The first socket-level error, if any (part of the "socket closed" failure message). */
  private socketError: string | undefined;

  static connect(url: string, opts: ConnectOptions = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const wsOpts: WebSocket.ClientOptions = { headers: headersOf(opts), handshakeTimeout: opts.timeoutMs ?? 5000 };
      if (opts.autoPong === false) wsOpts.autoPong = false;
      const ws = new WebSocket(url, protocolsOf(opts), wsOpts);
      const client = new TestClient(ws, opts);
      ws.on('upgrade', (res: IncomingMessage) => {
        const h = res.headers['sec-websocket-protocol'];
        client.protocolHeader = Array.isArray(h) ? h.join(', ') : h;
      });
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          req.destroy();
          req.socket?.destroy();
          reject(new UpgradeRejected(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers));
        });
      });
      ws.once('error', (err: Error) => reject(err));
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** The subprotocol the client library settled on. */
  get protocol(): string {
    return this.ws.protocol;
  }

  get closeState(): CloseInfo | undefined {
    return this.closeInfo;
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    const r = receivedFrame(data, isBinary);
    this.frames.push(r);
    this.sequence.check(r, () => this.describe(Math.max(0, this.frames.length - 6)));
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves on the next received frame or close, or after ms. */
  private nextWake(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const w = (): void => done();
      const t = setTimeout(() => done(), ms);
      const done = (): void => {
        clearTimeout(t);
        this.waiters.delete(w);
        resolve();
      };
      this.waiters.add(w);
    });
  }

  /** Index the next `nextFrame` call starts searching from. */
  mark(): number {
    return this.frames.length;
  }

  /** Moves the `nextFrame` cursor (e.g. to a `mark()`). */
  seek(index: number): void {
    this.cursor = index;
  }

  private waitFrame(pred: FramePredicate, from: number, timeoutMs: number, advance: boolean): Promise<Received> {
    return new Promise((resolve, reject) => {
      let scanned = from;
      const check = (): boolean => {
        if (this.sequence.regression) {
          reject(new Error(this.sequence.regression));
          return true;
        }
        for (; scanned < this.frames.length; scanned++) {
          const r = this.frames[scanned] as Received;
          if (pred(r)) {
            if (advance) this.cursor = scanned + 1;
            resolve(r);
            return true;
          }
        }
        return false;
      };
      if (check()) return;
      const waiter = (): void => {
        if (check()) return done();
        if (this.closeInfo) {
          done();
          reject(
            new Error(
              `socket closed (${this.closeInfo.code} ${this.closeInfo.reason}${this.socketError ? `; socket error: ${this.socketError}` : ''}) before the expected frame; got: ${this.describe(from)}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching frame within ${timeoutMs} ms; got: ${this.describe(from)}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      if (this.closeInfo) return waiter();
      this.waiters.add(waiter);
    });
  }

  /** The first matching frame after the last one returned by nextFrame; advances past it. */
  nextFrame(pred: FramePredicate, timeoutMs = 3000): Promise<Received> {
    return this.waitFrame(pred, this.cursor, timeoutMs, true);
  }

  /** The first matching frame at or after index `from` (default: all); does not move the cursor. */
  waitFor(pred: FramePredicate, timeoutMs = 3000, from = 0): Promise<Received> {
    return this.waitFrame(pred, from, timeoutMs, false);
  }

  /** Resolves once no frame has arrived for `quietMs` (or after `maxMs`). */
  async settle(quietMs = 200, maxMs = 3000): Promise<void> {
    const deadline = Date.now() + maxMs;
    let seen = this.frames.length;
    let since = Date.now();
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      if (this.frames.length !== seen) {
        seen = this.frames.length;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) return;
    }
  }

  /** The `binding_hello` payload (waits for it). */
  async hello(timeoutMs = 3000): Promise<BindingHelloPayload> {
    const r = await this.waitFor(is.op('binding_hello'), timeoutMs);
    return (r.type === 'json' ? r.frame.payload : {}) as unknown as BindingHelloPayload;
  }

  /** Builds the frame as a client would: first frame carries `extensions` and `service_parameters`. */
  frame<P>(
    op: string,
    payload: P,
    extra: Partial<Pick<Envelope<P>, 'replay_from' | 'service_parameters' | 'extensions' | 'id'>> = {},
  ): Envelope<P> {
    const first = !this.firstFrameSent;
    this.firstFrameSent = true;
    const withFirst = { ...extra };
    if (first) {
      if (withFirst.extensions === undefined && this.opts.extensions !== null)
        withFirst.extensions = this.opts.extensions ?? [EXTENSION_URI];
      if (withFirst.service_parameters === undefined && this.opts.serviceParameters)
        withFirst.service_parameters = this.opts.serviceParameters;
    }
    return clientFrame(op, payload, withFirst);
  }

  /** Sends an envelope; returns its id. */
  send<P>(
    op: string,
    payload: P,
    extra: Partial<Pick<Envelope<P>, 'replay_from' | 'service_parameters' | 'extensions' | 'id'>> = {},
  ): string {
    const f = this.frame(op, payload, extra);
    this.ws.send(JSON.stringify(f));
    return f.id;
  }

  /** Sends text or bytes exactly as given. */
  sendRaw(data: string | Buffer | Uint8Array, binary = typeof data !== 'string'): void {
    this.firstFrameSent = true;
    this.ws.send(data, { binary });
  }

  /** Sends a request and waits for the frame echoing its id (the response or an Error). */
  async request<P>(
    op: string,
    payload: P,
    extra: Partial<Pick<Envelope<P>, 'replay_from' | 'service_parameters' | 'extensions'>> = {},
    timeoutMs = 3000,
  ): Promise<ServerEnvelope> {
    const from = this.frames.length;
    const id = this.send(op, payload, extra);
    const r = await this.waitFor(is.reply(id), timeoutMs, from);
    if (r.type !== 'json') throw new Error('unreachable');
    return r.frame;
  }

  /** `pty.session_input` with base64 data (JSON path). */
  input(text: string | Buffer): string {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    return this.send('pty.session_input', { data: encodeBase64(bytes) });
  }

  /** A `PW1I` binary input frame. */
  inputBinary(text: string | Buffer): void {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    this.sendRaw(Buffer.from(encodeInputFrame(bytes)), true);
  }

  /** Output bytes (JSON and PW1O) received from frame index `from` on, concatenated. */
  outputSince(from = 0): Buffer {
    const parts: Buffer[] = [];
    for (let i = from; i < this.frames.length; i++) {
      const b = outputBytes(this.frames[i] as Received);
      if (b) parts.push(b);
    }
    return Buffer.concat(parts);
  }

  /** Waits until the output received since `from` (decoded as UTF-8) matches `re`; returns that text. */
  async collectOutput(re: RegExp, timeoutMs = 3000, from = 0): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const decoder = new StringDecoder('utf8');
    let text = '';
    let scanned = from;
    for (;;) {
      // Incremental: only frames that arrived since the last look are decoded.
      const grew = scanned < this.frames.length;
      for (; scanned < this.frames.length; scanned++) {
        const b = outputBytes(this.frames[scanned] as Received);
        if (b) text += decoder.write(b);
      }
      if (grew && re.test(text)) return text;
      const left = deadline - Date.now();
      if (left <= 0 || this.closeInfo) {
        if (re.test(text)) return text;
        throw new Error(
          `output did not match ${String(re)} within ${timeoutMs} ms; got ${JSON.stringify(text.slice(-400))}`,
        );
      }
      await this.nextWake(Math.min(left, 100));
      // Under a flood, look at most every 20 ms rather than once per frame.
      if (this.frames.length - scanned > 0 && text.length > 1 << 20) await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Human-readable list of frames from `from` on (for failure messages). */
  describe(from = 0, max = 40): string {
    const list = this.frames.slice(from).map(describeFrame);
    const head = list.length > max ? [...list.slice(0, max / 2), '…', ...list.slice(-max / 2)] : list;
    return `[${head.join(', ')}]`;
  }

  close(code = 1000): Promise<CloseInfo> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
    return this.closed;
  }

  /** Stops reading from the TCP socket (a slow consumer: the server's send backlog grows). */
  pauseReading(): void {
    this.rawSocket()?.pause();
  }

  resumeReading(): void {
    this.rawSocket()?.resume();
  }

  private rawSocket(): Socket | undefined {
    return (this.ws as unknown as { _socket?: Socket })._socket;
  }

  /** Drops the TCP connection without a close handshake. */
  terminate(): void {
    this.ws.terminate();
  }
}
