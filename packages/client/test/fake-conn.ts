/** One client connection as the fake server sees it: what it sent, its role, and replies to it. */
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import {
  BEARER_SUBPROTOCOL_PREFIX,
  errorFrame,
  newId,
  serverFrame,
  SUBPROTOCOL_BINARY,
  type BindingErrorCode,
  type ClientFrame,
  type Envelope,
  type PtyRole,
} from '@pty-ws/protocol';

export class FakeConn {
  readonly received: ClientFrame[] = [];
  readonly rawText: string[] = [];
  readonly binaryReceived: Uint8Array[] = [];
  readonly clientId = newId();
  role: PtyRole | undefined;
  joined = false;
  label: string | undefined;
  /** Sequence of the last log frame written to this connection (README interpretation 1). */
  lastSeq = 0;
  readonly subscriptions = new Set<string>();
  helloSentAt = 0;
  firstFrameAt = 0;
  private readonly waiters: Array<{ match: (f: ClientFrame) => boolean; resolve: (f: ClientFrame) => void }> = [];

  constructor(
    readonly ws: WebSocket,
    readonly protocol: string,
    readonly offered: string[],
    readonly bearer: string | undefined,
    readonly authorization: string | undefined,
  ) {}

  get binary(): boolean {
    return this.protocol === SUBPROTOCOL_BINARY;
  }

  send(frame: Envelope<unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** A frame addressed to this connection only: not logged, carries the last sequence written here. */
  reply(op: string, payload: unknown, id?: string): void {
    this.send(serverFrame(op, payload, this.lastSeq, id ? { id } : {}));
  }

  error(code: BindingErrorCode, message: string, requestId?: string): void {
    this.send(errorFrame(code, message, this.lastSeq, requestId));
  }

  sessionFrame(payload: Record<string, unknown>): void {
    this.reply('pty.session_frame', payload);
  }

  /** Resolves with the next (or an already received) client frame of `op` matching `pred`. */
  waitFor(op: string, pred: (f: ClientFrame) => boolean = () => true): Promise<ClientFrame> {
    const match = (f: ClientFrame): boolean => f.op === op && pred(f);
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** @internal */
  record(frame: ClientFrame): void {
    this.received.push(frame);
    for (const w of [...this.waiters]) {
      if (w.match(frame)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(frame);
      }
    }
  }
}

export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  return header
    ? header
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** Binding §7.1: `bearer.<base64url-token>`; the server base64url-decodes it. */
export function bearerOf(offered: string[]): string | undefined {
  const b = offered.find((p) => p.startsWith(BEARER_SUBPROTOCOL_PREFIX));
  return b ? Buffer.from(b.slice(BEARER_SUBPROTOCOL_PREFIX.length), 'base64url').toString('utf8') : undefined;
}
