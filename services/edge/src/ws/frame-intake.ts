import {
  CloseCode,
  EXTENSION_URI,
  FrameRejected,
  parseClientFrame,
  type BindingErrorCode,
  type ClientFrame,
} from '@pty-ws/protocol';
import { FrameLimiter, base64DecodedLength, type FrameVerdict } from '../limits';
import type { BindingContext } from './binding-context';
import type { Conn } from './connection';
import { sendError } from './frame-writer';

/** A message that passed the intake: a parsed JSON frame, or the bytes of a binary one. */
export type Inbound = { frame: ClientFrame; binary?: undefined } | { binary: Uint8Array };

export interface IntakeContext extends BindingContext {
  /** A fatal error: Error frame, then close with `closeCode`. */
  fail(conn: Conn, code: BindingErrorCode, message: string, requestId: string | undefined, closeCode: number): void;
}

/**
 * Everything between a received WebSocket message and a frame to dispatch: the size limit, the
 * per-connection rate and input budgets, and parsing (once, in protocol). A refused message is
 * answered here and never reaches the verbs.
 */
export class FrameIntake {
  constructor(private readonly ctx: IntakeContext) {}

  /** Over PTYWS_MAX_FRAME_BYTES (none set: nothing is). */
  oversized(bytes: number): boolean {
    const max = this.ctx.deps.maxFrameBytes;
    return max !== undefined && bytes > max;
  }

  /**
   * Admits one message of `bytes` bytes (`data` may hold only its head when it is oversized), or
   * answers it and returns undefined.
   */
  admit(conn: Conn, data: ArrayBuffer, bytes: number, isBinary: boolean): Inbound | undefined {
    this.ctx.deps.metrics?.frameIn(isBinary ? 'binary' : 'json', bytes);
    // A leaving connection still receives its last frames but acts on nothing more.
    if (!conn.open || conn.phase === 'leaving') return undefined;
    if (this.oversized(bytes)) return this.tooBig(conn, data, bytes, isBinary);
    const limiter = this.limiterOf(conn);
    const admitted = limiter?.frame();
    if (admitted && !admitted.ok) return this.rateLimited(conn, admitted, isBinary ? undefined : requestIdOf(data));
    if (isBinary) {
      // Frame size is what a PW1I frame costs; the 4-byte magic is noise at these rates.
      const spent = limiter?.inputBytes(bytes);
      if (spent && !spent.ok) return this.rateLimited(conn, spent, undefined);
      return { binary: new Uint8Array(data.slice(0)) };
    }
    let frame: ClientFrame;
    try {
      frame = parseClientFrame(Buffer.from(data).toString('utf8'));
    } catch (err) {
      if (err instanceof FrameRejected) sendError(conn, err.code, err.message, err.requestId);
      else sendError(conn, 'INTERNAL', 'could not read the frame');
      return undefined;
    }
    if (limiter && frame.op === 'pty.session_input') {
      const spent = limiter.inputBytes(base64DecodedLength(frame.payload.data));
      if (!spent.ok) return this.rateLimited(conn, spent, frame.id);
    }
    firstFrame(conn, frame);
    return { frame };
  }

  /** A message over PTYWS_MAX_FRAME_BYTES: Error INVALID_REQUEST, then close 1009 (RFC 6455 §7.4.1). */
  private tooBig(conn: Conn, head: ArrayBuffer, bytes: number, isBinary: boolean): undefined {
    const max = this.ctx.deps.maxFrameBytes ?? 0;
    this.ctx.log(conn).warn({ bytes, max_frame_bytes: max }, 'message too big: closing');
    this.ctx.fail(
      conn,
      'INVALID_REQUEST',
      `message of ${bytes} bytes exceeds the ${max}-byte limit (PTYWS_MAX_FRAME_BYTES)`,
      isBinary ? undefined : requestIdOf(head),
      CloseCode.MESSAGE_TOO_BIG,
    );
    return undefined;
  }

  private limiterOf(conn: Conn): FrameLimiter | undefined {
    const limits = this.ctx.deps.frameLimits;
    if (!limits) return undefined;
    return (conn.limiter ??= new FrameLimiter(limits));
  }

  /** Over a per-connection limit: an Error for this frame, or goodbye + 4429 once it is sustained. */
  private rateLimited(
    conn: Conn,
    verdict: Exclude<FrameVerdict, { ok: true }>,
    requestId: string | undefined,
  ): undefined {
    this.ctx.deps.metrics?.rateLimited(verdict.limit);
    sendError(conn, 'RATE_LIMITED', verdict.message, requestId);
    if (verdict.abusive) {
      this.ctx
        .log(conn)
        .warn(
          { principal: conn.principal.id, limit: verdict.limit },
          'closing a connection that kept exceeding its rate limit',
        );
      this.ctx.goodbye(conn, 'rate_limited', CloseCode.RATE_LIMITED, verdict.message);
    }
    return undefined;
  }
}

/** The first frame's `service_parameters` and `extensions` apply to the whole connection. */
function firstFrame(conn: Conn, frame: ClientFrame): void {
  if (conn.firstFrameSeen) return;
  conn.firstFrameSeen = true;
  if (frame.service_parameters) conn.serviceParameters = frame.service_parameters;
  // An explicit extensions list without ours deactivates the PTY verbs for this connection.
  if (frame.extensions) conn.extensionActive = frame.extensions.includes(EXTENSION_URI);
}

/** The request id of a refused JSON frame, without parsing it: refusal must stay cheap. */
function requestIdOf(data: ArrayBuffer): string | undefined {
  const head = Buffer.from(data, 0, Math.min(data.byteLength, 512)).toString('utf8');
  const m = /"id"\s*:\s*"([^"\\]{1,128})"/.exec(head);
  return m?.[1];
}
