/**
 * A member socket that keeps no frame history (the testkit client keeps every frame, too much for
 * 100 sockets × MBs): it checks Output bytes against what was expected as they arrive, sequences
 * as they pass, and watches for one marker in Output or in a Keyframe's screen.
 */
import WebSocket from 'ws';
import { DroppedBeforeHello, retryDroppedAttach, type TestContext } from '@pty-ws/testkit';
import { EXTENSION_URI, clientFrame, encodeInputFrame, type PtyRole } from '@pty-ws/protocol';

const PW1O_HEADER = 13;

interface Frame {
  op?: string;
  id?: string;
  sequence?: number;
  payload?: { kind?: string; code?: string; snapshot?: string; message?: string };
}

type JoinOptions = { replayFrom?: number; expected?: Buffer; pauseAfterJoinMs?: number };

export class LeanMember {
  /** Output bytes compared equal to the expectation so far. */
  verified = 0;
  lagged = false;
  /** What followed PTY_OUTPUT_LAGGED, by kind: 'lagged', 'keyframe', 'output'… (the first few). */
  readonly afterLag: string[] = [];
  readonly problems: string[] = [];
  readonly sawMark: Promise<void>;
  private expected: Buffer | undefined;
  private lastSeq = -1;
  private tail = '';
  private markSeen = false;
  private resolveMark!: () => void;

  private constructor(
    private readonly ws: WebSocket,
    private readonly mark: string,
  ) {
    this.sawMark = new Promise((r) => (this.resolveMark = r));
  }

  /**
   * `opts.replayFrom`: join with replay from there; `opts.expected`: checked from the first Output
   * (the replay arrives before the join's Keyframe); `opts.pauseAfterJoinMs`: stop reading right
   * after sending the join, for this long (the server's sends to it back up meanwhile).
   */
  static async join(
    url: string,
    token: string,
    protocol: string,
    role: PtyRole,
    mark: string,
    opts: JoinOptions = {},
  ): Promise<LeanMember> {
    return retryDroppedAttach('lean member', () => LeanMember.joinOnce(url, token, protocol, role, mark, opts));
  }

  private static async joinOnce(
    url: string,
    token: string,
    protocol: string,
    role: PtyRole,
    mark: string,
    opts: JoinOptions,
  ): Promise<LeanMember> {
    const ws = new WebSocket(url, [protocol], {
      headers: { Authorization: `Bearer ${token}` },
      perMessageDeflate: false,
    });
    ws.binaryType = 'nodebuffer';
    const m = new LeanMember(ws, mark);
    if (opts.expected) m.expect(opts.expected);
    const joined = new Promise<void>((resolve, reject) => {
      let joinId: string | undefined;
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        const f = m.onMessage(data, isBinary);
        if (f?.op === 'binding_hello') {
          const frame = clientFrame(
            'pty.join_session',
            { role },
            { extensions: [EXTENSION_URI], replay_from: opts.replayFrom },
          );
          joinId = frame.id;
          ws.send(JSON.stringify(frame));
          if (opts.pauseAfterJoinMs !== undefined) {
            m.pause();
            setTimeout(() => m.resume(), opts.pauseAfterJoinMs);
          }
        } else if (f?.id === joinId && f?.op === 'Error') reject(new Error(`join refused: ${f.payload?.code}`));
        else if (f?.payload?.kind === 'Keyframe') resolve();
      });
      ws.once('error', reject);
      ws.once('close', (code: number, reason: Buffer) => {
        const what = `closed ${code} ${reason.toString('utf8')} before the join completed`;
        if (joinId === undefined && code === 1006) reject(new DroppedBeforeHello(`${what} (before binding_hello)`));
        else reject(new Error(`${what} (${joinId ? 'after' : 'before'} binding_hello)`));
      });
    });
    await joined;
    ws.on('close', () => m.problems.push('socket closed'));
    return m;
  }

  /** From now on every Output byte must continue `expected` (until a lag, which skips). */
  expect(expected: Buffer): void {
    this.expected = expected;
  }

  input(text: string): void {
    this.ws.send(encodeInputFrame(Buffer.from(text)), { binary: true });
  }

  pause(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resume(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  terminate(): void {
    this.ws.removeAllListeners('close');
    this.ws.terminate();
  }

  private onMessage(data: Buffer, isBinary: boolean): Frame | undefined {
    if (isBinary) {
      if (data.length < PW1O_HEADER || data.toString('latin1', 0, 4) !== 'PW1O') return undefined;
      this.sequence(data.readUInt32BE(8));
      this.output(data.subarray(PW1O_HEADER));
      return undefined;
    }
    const f = JSON.parse(data.toString('utf8')) as Frame;
    if (typeof f.sequence === 'number' && f.op === 'pty.session_frame' && f.payload?.kind !== 'Keyframe') {
      if (f.sequence < this.lastSeq) this.problems.push(`sequence went back: ${f.sequence} after ${this.lastSeq}`);
    }
    if (f.payload?.code === 'PTY_OUTPUT_LAGGED') {
      this.lagged = true;
      this.note('lagged');
    } else if (f.payload?.kind === 'Keyframe') {
      this.note('keyframe');
      if (
        this.lagged &&
        Buffer.from(f.payload.snapshot ?? '', 'base64')
          .toString('latin1')
          .includes(this.mark)
      )
        this.seeMark();
    } else if (f.op) this.note(f.payload?.kind ?? f.op);
    return f;
  }

  private sequence(seq: number): void {
    if (seq <= this.lastSeq) this.problems.push(`Output sequence ${seq} after ${this.lastSeq}`);
    else if (!this.lagged && this.lastSeq >= 0 && this.expected && seq !== this.lastSeq + 1) {
      // Cadence keyframes take numbers too; only a jump over frames we never saw is a gap.
      if (seq > this.lastSeq + 2) this.problems.push(`Output gap: ${this.lastSeq} -> ${seq}`);
    }
    this.lastSeq = seq;
  }

  private output(chunk: Buffer): void {
    this.note('output');
    if (this.expected && !this.lagged) {
      const want = this.expected.subarray(this.verified, this.verified + chunk.length);
      if (!want.equals(chunk) && this.problems.length < 5)
        this.problems.push(`byte ${this.verified}: got ${JSON.stringify(chunk.toString('latin1', 0, 40))}`);
      this.verified += chunk.length;
    }
    const look = this.tail + chunk.toString('latin1', Math.max(0, chunk.length - 64));
    if (look.includes(this.mark)) this.seeMark();
    this.tail = look.slice(-this.mark.length);
  }

  private note(kind: string): void {
    if (this.lagged && this.afterLag.length < 4) this.afterLag.push(kind);
  }

  private seeMark(): void {
    if (this.markSeen) return;
    this.markSeen = true;
    this.resolveMark();
  }
}

/** ~11 MB of numbered lines, CR LF already (the flood sessions run the PTY with -opost: bytes pass unchanged). */
export function numberedLines(fill: string): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 150_000; i++) lines.push(`line ${String(i).padStart(6, '0')} ${fill.repeat(64)}\r\n`);
  return Buffer.from(lines.join(''), 'latin1');
}

/**
 * A 120×30 session that waits for one line of input, then runs `command` and prints `mark`
 * (CR LF); the attach URL and token of its members.
 */
export async function floodSession(
  ctx: TestContext,
  command: string,
  mark: string,
): Promise<{ url: string; token: string }> {
  const s = await ctx.createSession({
    argv: ['/bin/sh', '-c', `stty -echo -opost; read _; ${command}; printf '${mark}\\r\\n'; exec sleep 600`],
    cols: 120,
    rows: 30,
  });
  return { url: ctx.server.attachUrl(s.session_id), token: ctx.server.adminToken };
}
