/**
 * Errors that cross the ports: thrown by one side (an adapter, the agent) and recognised by the
 * other (the sequencer, the edge), in one process or after control-nats rebuilt them on the edge.
 * Recognise them with the guards, never by `name`.
 */
import { BindingError } from '@pty-ws/protocol';

/** An append that was not `lastSeq + 1`: a second writer, or a gap (FrameLog, TranscriptArchive). */
export class SequenceConflictError extends Error {
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly got: number,
  ) {
    super(`frame log of ${sessionId}: expected sequence ${expected}, got ${got}`);
    this.name = 'SequenceConflictError';
  }
}

export function isSequenceConflict(err: unknown): err is SequenceConflictError {
  return err instanceof SequenceConflictError;
}

export type PtyFailureCode = 'PTY_WRITE_FAILED' | 'PTY_RESIZE_FAILED' | 'KEYFRAME_UNAVAILABLE';

/**
 * A PTY-level failure of one request (write, resize, keyframe): the edge reports it as a
 * `pty.session_frame` Error and the connection stays up, unlike a binding Error.
 */
export class PtyFailure extends Error {
  constructor(
    readonly code: PtyFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'PtyFailure';
  }
}

export function isPtyFailure(err: unknown): err is PtyFailure {
  return err instanceof PtyFailure;
}

/**
 * A store or the log (PostgreSQL, NATS) is unreachable or did not answer within its deadline: the
 * request may well succeed later. A binding `INTERNAL` error (retryable) that the HTTP bindings
 * answer 503 with Retry-After, gRPC with UNAVAILABLE. The message names the dependency only, never
 * its address; `cause` keeps the original error for the operator's log.
 */
export class DependencyUnavailable extends BindingError {
  constructor(
    readonly dependency: string,
    /** What was seen, without addresses: `unreachable`, `disconnected`, `no answer within 800 ms`. */
    readonly reason: string,
    readonly retryAfterS = 1,
    options?: { cause?: unknown },
  ) {
    super('INTERNAL', `${dependency} is unavailable (${reason}); retry later`, {
      dependency,
      reason,
      retry_after_s: retryAfterS,
    });
    this.name = 'DependencyUnavailable';
    if (options && 'cause' in options) this.cause = options.cause;
  }

  override get httpStatus(): number {
    return 503;
  }
}

export function isDependencyUnavailable(err: unknown): err is DependencyUnavailable {
  return err instanceof DependencyUnavailable;
}
