/**
 * One attach connection of a load scenario on the raw `ws` package: the same frames the k6
 * scripts send (first frame with the extension list, joins, PW1I input), and the same reading
 * (flush Keyframe, PW1O sequence and payload).
 */
import WebSocket from 'ws';
import { EXTENSION_URI, SUBPROTOCOL_BINARY, clientFrame, encodeInputFrame } from '@pty-ws/protocol';

export interface ServerFrame {
  op?: string;
  sequence?: number;
  payload?: { kind?: string; code?: string; anchor_sequence?: number; role?: string };
}

/** The join flush's Keyframe (unlogged: its sequence is its anchor; cadence ones are anchor+1). */
export function isFlushKeyframe(f: ServerFrame): boolean {
  return (
    f.op === 'pty.session_frame' &&
    f.payload?.kind === 'Keyframe' &&
    f.sequence !== (f.payload.anchor_sequence ?? -2) + 1
  );
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused: HTTP ${status}`);
  }
}

const PW1O = Buffer.from('PW1O', 'latin1');

export class LoadSocket {
  /** ms from creating the socket to 'open' (k6's ws_connecting). */
  connectMs = 0;
  openedAt = 0;
  closed = false;
  private first = true;
  private handler: ((f: ServerFrame) => void) | undefined;
  /** Frames that came before anyone listened (binding_hello often arrives with the upgrade). */
  private readonly backlog: ServerFrame[] = [];

  get onFrame(): (f: ServerFrame) => void {
    return this.handler ?? ((f) => this.backlog.push(f));
  }

  /** Setting a handler first hands it what arrived before. */
  set onFrame(fn: (f: ServerFrame) => void) {
    this.handler = fn;
    for (const f of this.backlog.splice(0)) fn(f);
  }

  /** PW1O payload and its sequence. */
  onOutput: (payload: Buffer, sequence: number) => void = () => {};

  private constructor(readonly ws: WebSocket) {
    ws.binaryType = 'nodebuffer';
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        if (data.length >= 13 && data.compare(PW1O, 0, 4, 0, 4) === 0)
          this.onOutput(data.subarray(13), data.readUInt32BE(8));
        return;
      }
      let f: ServerFrame;
      try {
        f = JSON.parse(data.toString('utf8')) as ServerFrame;
      } catch {
        return;
      }
      this.onFrame(f);
    });
    ws.on('close', () => (this.closed = true));
    ws.on('error', () => undefined);
  }

  /** Opens a binary-subprotocol attach socket with the token as bearer; UpgradeRefused on HTTP errors. */
  static open(url: string, token: string, timeoutMs = 10_000): Promise<LoadSocket> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, [SUBPROTOCOL_BINARY], {
        headers: { Authorization: `Bearer ${token}` },
        handshakeTimeout: timeoutMs,
        perMessageDeflate: false,
      });
      const s = new LoadSocket(ws);
      ws.once('open', () => {
        s.openedAt = performance.now();
        s.connectMs = s.openedAt - started;
        resolve(s);
      });
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new UpgradeRefused(res.statusCode ?? 0));
      });
      ws.once('error', reject);
    });
  }

  /** A JSON frame; the connection's first carries the extension list (and replay_from when asked). */
  send(op: string, payload: object, replayFrom?: number): void {
    if (this.closed) return;
    const extra = this.first ? { extensions: [EXTENSION_URI] } : {};
    this.first = false;
    this.ws.send(
      JSON.stringify(
        clientFrame(op, payload, { ...extra, ...(replayFrom !== undefined ? { replay_from: replayFrom } : {}) }),
      ),
    );
  }

  input(text: string): void {
    if (!this.closed) this.ws.send(encodeInputFrame(Buffer.from(text, 'latin1')));
  }

  close(): void {
    if (!this.closed) this.ws.close(1000);
    this.closed = true;
  }

  /** Resolves when `pred` matches a JSON frame, or with false after `ms` or on close. */
  until(pred: (f: ServerFrame) => boolean, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const prev = this.onFrame;
      const done = (v: boolean): void => {
        clearTimeout(t);
        this.onFrame = prev;
        this.ws.off('close', onClose);
        resolve(v);
      };
      const onClose = (): void => done(false);
      const t = setTimeout(() => done(false), ms);
      this.onFrame = (f) => {
        prev(f);
        if (pred(f)) done(true);
      };
      this.ws.once('close', onClose);
    });
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Runs `vus` virtual users, each repeating `iteration` until the deadline: k6's constant-vus, or
 * its ramping-vus when `rampMs` > 0 (VU i starts at i/vus of the ramp, as k6's linear stage does).
 */
export async function runVus(
  vus: number,
  deadline: number,
  iteration: (vu: number) => Promise<void>,
  rampMs = 0,
): Promise<void> {
  await Promise.all(
    Array.from({ length: vus }, async (_, vu) => {
      if (rampMs > 0) await delay((rampMs * vu) / vus);
      while (performance.now() < deadline) {
        try {
          await iteration(vu);
        } catch {
          await delay(100); // a failed iteration recorded its checks; do not spin
        }
      }
    }),
  );
}

/**
 * k6's constant-arrival-rate: starts an iteration every 1/`perSecond` s until the deadline,
 * whatever the previous ones are doing, with at most `maxInFlight` running (k6's preAllocatedVUs:
 * an arrival with none free is dropped, as k6 drops it).
 */
export async function runArrivals(
  perSecond: number,
  maxInFlight: number,
  deadline: number,
  iteration: () => Promise<void>,
): Promise<{ dropped: number }> {
  const running = new Set<Promise<void>>();
  let dropped = 0;
  const start = performance.now();
  for (let i = 0; ; i++) {
    const at = start + (i * 1000) / perSecond;
    if (at >= deadline) break;
    const wait = at - performance.now();
    if (wait > 0) await delay(wait);
    if (running.size >= maxInFlight) {
      dropped++;
      continue;
    }
    const p: Promise<void> = iteration()
      .catch(() => undefined)
      .finally(() => running.delete(p));
    running.add(p);
  }
  await Promise.all(running);
  return { dropped };
}
