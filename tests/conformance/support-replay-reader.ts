/**
 * A socket that joins with `replay_from` and checks, as frames arrive and without keeping them,
 * that the log frames come one sequence after another and that the Output bytes continue what is
 * expected; it notes the Closed frame, PTY_OUTPUT_LAGGED and what followed it, and the goodbye.
 * JSON or binary (PW1O) output alike; it can stop reading for a while (a stalled reader).
 */
import WebSocket from 'ws';
import { EXTENSION_URI, SUBPROTOCOL_BINARY, clientFrame } from '@pty-ws/protocol';

const PW1O_HEADER = 13;

interface Frame {
  op?: string;
  sequence?: number;
  payload?: { kind?: string; code?: string; message?: string; data?: string; reason?: string; detail?: string };
}

export interface ReplayReaderOptions {
  protocol: string;
  replayFrom: number;
  /** The session's Output bytes from its start: every byte received must continue them. */
  expected: Buffer;
  /** Stop reading right after the join is sent, for this long (Infinity: until `resume`). */
  pauseAfterJoinMs?: number;
}

export class ReplayReader {
  /** Output bytes received and equal to `expected` so far (counting stops at a lag or a mismatch). */
  verified = 0;
  /** Sequence of the last log frame received. */
  lastSeq = 0;
  closedSeq: number | undefined;
  /** The Closed frame's reason: `error` when the owner gave the log up (what followed its end was lost). */
  closedReason: string | undefined;
  lagged = false;
  /** What came after PTY_OUTPUT_LAGGED, by kind (the first few). */
  readonly afterLag: string[] = [];
  goodbye: { reason?: string; detail?: string } | undefined;
  closeCode: number | undefined;
  readonly problems: string[] = [];
  /** Error frames other than PTY_OUTPUT_LAGGED (code: message): a replay the server cut says why here. */
  readonly errors: string[] = [];
  /** Output frames received, and how many of them carried no bytes (a frame whose bytes got lost). */
  outputFrames = 0;
  emptyOutputs = 0;
  /** Resolves once the socket is closed. */
  readonly ended: Promise<void>;
  private readonly ws: WebSocket;

  constructor(
    url: string,
    token: string,
    private readonly opts: ReplayReaderOptions,
  ) {
    this.ws = new WebSocket(url, [opts.protocol], {
      headers: { Authorization: `Bearer ${token}` },
      perMessageDeflate: false,
    });
    this.ws.binaryType = 'nodebuffer';
    this.ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    this.ws.on('error', (err) => this.problems.push(`socket error: ${err.message}`));
    this.ended = new Promise((resolve) =>
      this.ws.once('close', (code: number) => {
        this.closeCode = code;
        resolve();
      }),
    );
  }

  static binary(url: string, token: string, opts: Omit<ReplayReaderOptions, 'protocol'>): ReplayReader {
    return new ReplayReader(url, token, { ...opts, protocol: SUBPROTOCOL_BINARY });
  }

  /** Stops reading (the server's sends back up), or reads again. */
  pause(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resume(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  terminate(): void {
    this.ws.terminate();
  }

  /** Everything up to `seq` has been received in order (or the socket ended first). */
  async reach(seq: number): Promise<void> {
    while (this.lastSeq < seq && this.closeCode === undefined) await new Promise((r) => setTimeout(r, 20));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      if (data.length < PW1O_HEADER || data.toString('latin1', 0, 4) !== 'PW1O') {
        this.problems.push('a binary frame that is not PW1O');
        return;
      }
      this.logFrame(data.readUInt32BE(8), 'Output');
      this.output(data.subarray(PW1O_HEADER));
      return;
    }
    const f = JSON.parse(data.toString('utf8')) as Frame;
    if (f.op === 'binding_hello') return this.join();
    if (f.op === 'binding_goodbye') {
      this.goodbye = { ...(f.payload ?? {}) };
      return;
    }
    if (f.op === 'Error') {
      // A binding error (a log read that failed ends the replay with one, then the socket).
      this.errors.push(`${f.payload?.code ?? '?'}: ${f.payload?.message ?? ''}`);
      return;
    }
    if (f.op !== 'pty.session_frame' || typeof f.sequence !== 'number') return;
    const kind = f.payload?.kind ?? '?';
    if (kind === 'Error' && f.payload?.code === 'PTY_OUTPUT_LAGGED') {
      this.lagged = true;
      this.note('lagged');
      return;
    }
    if (kind === 'Error') this.errors.push(`${f.payload?.code ?? '?'}: ${f.payload?.message ?? ''}`);
    if (kind === 'Keyframe' || kind === 'RoleAssigned' || kind === 'Error') {
      // Per-connection frames: they repeat the last sequence (a Keyframe: its anchor).
      this.note(kind);
      if (kind === 'Keyframe') this.lastSeq = Math.max(this.lastSeq, f.sequence);
      return;
    }
    this.logFrame(f.sequence, kind);
    if (kind === 'Output') this.output(Buffer.from(f.payload?.data ?? '', 'base64'));
    if (kind === 'Closed') {
      this.closedSeq = f.sequence;
      this.closedReason = f.payload?.reason;
    }
  }

  private join(): void {
    const frame = clientFrame(
      'pty.join_session',
      { role: 'observer' },
      { extensions: [EXTENSION_URI], replay_from: this.opts.replayFrom },
    );
    this.ws.send(JSON.stringify(frame));
    const pauseMs = this.opts.pauseAfterJoinMs;
    if (pauseMs !== undefined) {
      this.pause();
      if (pauseMs !== Infinity) setTimeout(() => this.resume(), pauseMs);
    }
  }

  /** A log frame: the next sequence, or (after a lag's Keyframe) any later one. */
  private logFrame(seq: number, kind: string): void {
    this.note(kind);
    if (seq <= this.lastSeq) this.problems.push(`sequence ${seq} after ${this.lastSeq}`);
    else if (seq !== this.lastSeq + 1 && !this.lagged) this.problems.push(`sequence hole: ${this.lastSeq} -> ${seq}`);
    this.lastSeq = seq;
  }

  /** What a failed expectation should show: where the reader stopped, and how the socket ended. */
  summary(): Record<string, unknown> {
    return {
      verified: this.verified,
      lastSeq: this.lastSeq,
      closedSeq: this.closedSeq,
      closedReason: this.closedReason,
      lagged: this.lagged,
      goodbye: this.goodbye,
      closeCode: this.closeCode,
      problems: this.problems,
      errors: this.errors,
      outputFrames: this.outputFrames,
      emptyOutputs: this.emptyOutputs,
    };
  }

  private output(chunk: Buffer): void {
    this.outputFrames++;
    if (chunk.length === 0) this.emptyOutputs++;
    if (this.lagged) return; // a lag skips bytes: a Keyframe stands for them
    const want = this.opts.expected.subarray(this.verified, this.verified + chunk.length);
    if (!want.equals(chunk)) {
      if (this.problems.length < 5) this.problems.push(`byte ${this.verified}: unexpected output`);
      return;
    }
    this.verified += chunk.length;
  }

  private note(kind: string): void {
    if (this.lagged && this.afterLag.length < 4) this.afterLag.push(kind);
  }
}
