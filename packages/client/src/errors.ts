import type { A2AError, BindingErrorCode, ErrorPayload } from '@pty-ws/protocol';
import { CloseCode, ERROR_TABLE } from '@pty-ws/protocol';

/** Errors raised by the SDK itself, never sent by a server. */
export type ClientErrorCode =
  /** No response within the request timeout. */
  | 'TIMEOUT'
  /** The client is not connected (never connected, or closed). */
  | 'NOT_CONNECTED'
  /** The connection dropped while the request was in flight; the request may or may not have run. */
  | 'CONNECTION_CLOSED'
  /** The upgrade or the wait for `binding_hello` failed. */
  | 'CONNECT_FAILED'
  /** The server broke the binding (wrong subprotocol echo, no hello first, unparsable frame, 4400). */
  | 'PROTOCOL_ERROR'
  /** Session (or task) unknown at upgrade: HTTP 404 / close 4404. */
  | 'NOT_FOUND'
  /** The call does not fit the client's state (e.g. join twice). */
  | 'INVALID_STATE'
  /** The call's arguments are unusable (e.g. header token transport without a `ws` constructor). */
  | 'INVALID_ARGUMENT'
  /** Automatic reconnect gave up after `maxAttempts`. */
  | 'RECONNECT_FAILED'
  /**
   * The session's process has ended (`Closed` arrived; the `closed` event says how): a join to a
   * session that closed, also while the client was away, rejects with it after the replay.
   */
  | 'SESSION_CLOSED';

export type PtyWsErrorCode = BindingErrorCode | ClientErrorCode;

export interface PtyWsErrorDetails {
  a2aError?: A2AError;
  retryable?: boolean;
  /** Id of the request frame the error answers. */
  requestId?: string;
  /** Op of that request, when known. */
  op?: string;
  closeCode?: number;
  httpStatus?: number;
  cause?: unknown;
}

/**
 * The one error type the SDK rejects with or emits. `code` is a binding code (binding §6) when
 * the server sent an `Error` frame; unknown server codes are passed through unchanged.
 */
export class PtyWsError extends Error {
  readonly code: PtyWsErrorCode | (string & Record<never, never>);
  readonly a2aError: A2AError | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  readonly op: string | undefined;
  readonly closeCode: number | undefined;
  readonly httpStatus: number | undefined;

  constructor(
    code: PtyWsErrorCode | (string & Record<never, never>),
    message: string,
    details: PtyWsErrorDetails = {},
  ) {
    super(message);
    this.name = 'PtyWsError';
    this.code = code;
    this.a2aError = details.a2aError;
    this.retryable = details.retryable ?? false;
    this.requestId = details.requestId;
    this.op = details.op;
    this.closeCode = details.closeCode;
    this.httpStatus = details.httpStatus;
    if (details.cause !== undefined) (this as { cause?: unknown }).cause = details.cause;
  }

  /** Builds the error for a server `Error` frame (binding §6). */
  static fromPayload(payload: unknown, requestId?: string, op?: string): PtyWsError {
    const p = (payload ?? {}) as Partial<ErrorPayload>;
    const code = typeof p.code === 'string' ? p.code : 'INTERNAL';
    const message = typeof p.message === 'string' ? p.message : `server error ${code}`;
    const known = (ERROR_TABLE as Record<string, { retryable: boolean } | undefined>)[code];
    const details: PtyWsErrorDetails = {
      retryable: typeof p.retryable === 'boolean' ? p.retryable : (known?.retryable ?? false),
    };
    if (p.a2a_error && typeof p.a2a_error === 'object') details.a2aError = p.a2a_error;
    if (requestId !== undefined) details.requestId = requestId;
    if (op !== undefined) details.op = op;
    return new PtyWsError(code, message, details);
  }
}

export function isPtyWsError(e: unknown): e is PtyWsError {
  return e instanceof PtyWsError;
}

/**
 * The error behind a close or a refused upgrade that must not be retried: auth, authorization,
 * unknown session, protocol violation. Returns undefined when reconnecting may help.
 */
export function fatalCloseError(closeCode: number, reason: string, httpStatus?: number): PtyWsError | undefined {
  const status = httpStatus ?? 0;
  const details = { closeCode, ...(httpStatus !== undefined ? { httpStatus } : {}) };
  const why = reason ? `: ${reason}` : '';
  if (closeCode === CloseCode.UNAUTHENTICATED || status === 401) {
    return new PtyWsError('UNAUTHENTICATED', `authentication failed${why}`, details);
  }
  if (closeCode === CloseCode.FORBIDDEN || status === 403) {
    return new PtyWsError('PERMISSION_DENIED', `not authorized for this session${why}`, details);
  }
  if (closeCode === CloseCode.NOT_FOUND || status === 404) {
    return new PtyWsError('NOT_FOUND', `session not found${why}`, details);
  }
  if (closeCode === CloseCode.PROTOCOL_VIOLATION || status === 400) {
    return new PtyWsError('PROTOCOL_ERROR', `server refused the connection as a protocol violation${why}`, details);
  }
  return undefined;
}

/** Any thrown value as a PtyWsError (non-SDK errors become INTERNAL, keeping the original as `cause`). */
export function asPtyWsError(err: unknown): PtyWsError {
  if (isPtyWsError(err)) return err;
  return new PtyWsError('INTERNAL', err instanceof Error ? err.message : String(err), { cause: err });
}
