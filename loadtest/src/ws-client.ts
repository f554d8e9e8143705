/**
 * A lean pty-ws client on the raw `ws` package. It keeps no frame history (the SDK and the
 * testkit client do, which would cost more than the server under a 100-observer flood): PW1O
 * payloads go straight to one listener, JSON frames are parsed only for the few ops we wait on.
 */
import WebSocket from 'ws';
import {
  EXTENSION_URI,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  clientFrame,
  encodeInputFrame,
  type PtyRole,
} from '@pty-ws/protocol';
import { DroppedBeforeHello, retryDroppedAttach } from '@pty-ws/testkit';
import type { ByteChannel } from './channel';

const PW1O = Buffer.from('PW1O', 'latin1');
const PW1O_HEADER = 13;

interface JsonFrame {
  op?: string;
  id?: string;
  sequence?: number;
  payload?: {
    kind?: string;
    data?: string;
    code?: string;
    message?: string;
    snapshot?: string;
    anchor_sequence?: number;
    session?: { current_sequence?: number };
  };
}

/**
 * The join flush's Keyframe is per-connection and carries the sequence of the last log frame
 * written (its anchor); cadence Keyframes replayed from the log carry their own sequence, anchor+1.
 */
function isFlushKeyframe(f: JsonFrame): boolean {
  return (
    f.op === 'pty.session_frame' &&
    f.payload?.kind === 'Keyframe' &&
    f.sequence !== (f.payload.anchor_sequence ?? -2) + 1
  );
}

export interface JoinResult {
  /** performance.now() when the flush Keyframe arrived. */
  keyframeAt: number;
  /** Frames received between the join request and the Keyframe, both included. */
  frames: number;
  bytes: number;
}

const warned = new Set<string>();
/** A refusal makes a sample wait out its timeout: say why once, on the progress stream. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`bench: ${message}\n`);
}

export class BenchSocket implements ByteChannel {
  /** performance.now() at construction and at 'open'. */
  readonly createdAt = performance.now();
  openedAt = 0;
  /** Head sequence reported by binding_hello. */
  helloSequence = -1;
  /** PTY_OUTPUT_LAGGED notices (this socket was skipped forward as a slow consumer). */
  lagged = 0;
  closed = false;
  /** The close code once the socket closed, and `closed <code> <reason>`: what a wait that never ended reports. */
  closeCode: number | undefined;
  closeInfo = '';
  private readonly onSocketClose: Array<() => void> = [];
  onClosedFrame: () => void = () => {};
  /** A Keyframe's screen after PTY_OUTPUT_LAGGED: what a skipped-forward reader was handed instead of the bytes. */
  onScreenAfterLag: (screen: Buffer) => void = () => {};
  private output: (chunk: Buffer, sequence: number) => void = () => {};
  private waiters: Array<(f: JsonFrame) => boolean> = [];
  private counting: { frames: number; bytes: number } | undefined;
  private firstSent = false;
  /** Kept: binding_hello often arrives in the same read as the upgrade, before anyone waits. */
  private helloFrame: JsonFrame | undefined;

  private constructor(
    readonly ws: WebSocket,
    readonly binary: boolean,
  ) {
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on('close', (code: number, reason: Buffer) => {
      this.closed = true;
      this.closeCode = code;
      this.closeInfo = `closed ${code}${reason.length ? ` ${reason.toString('utf8')}` : ''}`;
      this.onClosedFrame();
      for (const fail of this.onSocketClose.splice(0)) fail();
    });
    ws.on('error', () => undefined);
  }

  /** Opens the socket (admin bearer in the Authorization header) and resolves at 'open'. */
  static open(url: string, token: string, binary: boolean, timeoutMs = 10_000): Promise<BenchSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, [binary ? SUBPROTOCOL_BINARY : SUBPROTOCOL_JSON], {
        headers: { Authorization: `Bearer ${token}` },
        handshakeTimeout: timeoutMs,
        perMessageDeflate: false,
      });
      const s = new BenchSocket(ws, binary);
      ws.once('open', () => {
        s.openedAt = performance.now();
        resolve(s);
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The PW1O (or JSON Output) sequence is passed along for callers that track the log head. */
  setListener(listener: (chunk: Buffer, sequence: number) => void): void {
    this.output = listener;
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.counting) {
      this.counting.frames++;
      this.counting.bytes += data.length;
    }
    if (isBinary) {
      if (data.length >= PW1O_HEADER && data.compare(PW1O, 0, 4, 0, 4) === 0) {
        // u64 BE sequence; its high word is 0 for any real session, so the low word suffices.
        this.output(data.subarray(PW1O_HEADER), data.readUInt32BE(8));
      }
      return;
    }
    const f = JSON.parse(data.toString('utf8')) as JsonFrame;
    const kind = f.payload?.kind;
    if (f.op === 'pty.session_frame' && kind === 'Output' && typeof f.payload?.data === 'string') {
      this.output(Buffer.from(f.payload.data, 'base64'), f.sequence ?? -1);
    } else if (kind === 'Closed') this.onClosedFrame();
    if (f.payload?.code === 'PTY_OUTPUT_LAGGED') this.lagged++;
    else if (f.op === 'Error') warnOnce(`the service answered Error ${f.payload?.code}: ${f.payload?.message}`);
    else if (kind === 'Keyframe' && this.lagged > 0 && typeof f.payload?.snapshot === 'string')
      this.onScreenAfterLag(Buffer.from(f.payload.snapshot, 'base64'));
    if (f.op === 'binding_hello') this.helloFrame = f;
    if (this.waiters.length) this.waiters = this.waiters.filter((w) => !w(f));
  }

  /** Resolves with the first JSON frame matching `pred`. */
  private waitJson(pred: (f: JsonFrame) => boolean, timeoutMs: number, what: string): Promise<JsonFrame> {
    return new Promise((resolve, reject) => {
      // A socket that closes first ends the wait at once, saying how it closed.
      const stopWaiting = (): void => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const at = this.onSocketClose.indexOf(onClose);
        if (at >= 0) this.onSocketClose.splice(at, 1);
      };
      const give = (why: string): void => {
        stopWaiting();
        reject(new Error(`no ${what}: ${why}`));
      };
      const onClose = (): void => give(`socket ${this.closeInfo}`);
      const timer = setTimeout(() => give(`not within ${timeoutMs} ms (socket still open)`), timeoutMs);
      const waiter = (f: JsonFrame): boolean => {
        if (!pred(f)) return false;
        stopWaiting();
        resolve(f);
        return true;
      };
      if (this.closed) return onClose();
      this.onSocketClose.push(onClose);
      this.waiters.push(waiter);
    });
  }

  /** The server speaks first (binding_hello); the binding forbids sending before it. */
  async hello(timeoutMs = 10_000): Promise<void> {
    const f = this.helloFrame ?? (await this.waitJson((x) => x.op === 'binding_hello', timeoutMs, 'binding_hello'));
    this.helloSequence = f.payload?.session?.current_sequence ?? -1;
  }

  private send(op: string, payload: object, extra: { replay_from?: number } = {}): string {
    const first = !this.firstSent;
    this.firstSent = true;
    const frame = clientFrame(op, payload, first ? { ...extra, extensions: [EXTENSION_URI] } : extra);
    this.ws.send(JSON.stringify(frame));
    return frame.id;
  }

  /** pty.join_session; resolves when the join flush ends with its Keyframe. */
  async join(role: PtyRole, replayFrom?: number, timeoutMs = 15_000): Promise<JoinResult> {
    const counting = { frames: 0, bytes: 0 };
    this.counting = counting;
    let failed: string | undefined;
    const id = this.send('pty.join_session', { role }, replayFrom === undefined ? {} : { replay_from: replayFrom });
    await this.waitJson(
      (f) => {
        if (f.id === id && f.op === 'Error') failed = `${f.payload?.code} ${f.payload?.message}`;
        return failed !== undefined || isFlushKeyframe(f);
      },
      timeoutMs,
      'join Keyframe',
    );
    const keyframeAt = performance.now();
    this.counting = undefined;
    if (failed) throw new Error(`join refused: ${failed}`);
    return { keyframeAt, frames: counting.frames, bytes: counting.bytes };
  }

  write(data: Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.binary) this.ws.send(encodeInputFrame(data), { binary: true });
    else this.send('pty.session_input', { data: data.toString('base64') });
  }

  /** Drops the TCP connection at once: the fastest teardown for hundreds of sockets. */
  terminate(): void {
    this.ws.terminate();
  }
}

/** Opens, waits for hello and joins; the usual way to get a member socket. */
export async function member(url: string, token: string, role: PtyRole, binary = true): Promise<BenchSocket> {
  const s = await retryDroppedAttach('bench', async () => {
    const opened = await BenchSocket.open(url, token, binary);
    try {
      await opened.hello();
      return opened;
    } catch (err) {
      opened.terminate();
      if (opened.closeCode !== 1006) throw err;
      throw new DroppedBeforeHello(`an attach was dropped before binding_hello (${opened.closeInfo})`);
    }
  });
  try {
    await s.join(role);
  } catch (err) {
    s.terminate();
    throw err;
  }
  return s;
}
