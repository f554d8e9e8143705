import type { A2AError } from './a2a';
import { CloseCode } from './constants';

/** Binding error codes (binding §6). */
export type BindingErrorCode =
  | 'TASK_NOT_FOUND'
  | 'TASK_NOT_CANCELABLE'
  | 'INVALID_REQUEST'
  | 'UNSUPPORTED_OPERATION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'REPLAY_OUT_OF_RANGE';

/** PTY-level error codes carried in `pty.session_frame` `Error` frames (extension). */
export type PtyErrorCode = 'PTY_WRITE_FAILED' | 'PTY_RESIZE_FAILED' | 'PTY_OUTPUT_LAGGED' | 'KEYFRAME_UNAVAILABLE';

interface ErrorSpec {
  /** A2A core error name; null where the error is binding-specific. */
  a2aType: string;
  /**
   * JSON-RPC code the A2A JSON-RPC binding uses for this error (packages/a2a A2A_ERROR_SPECS: A2A
   * defines no code for auth and rate refusals, so they are -32600 told apart by `type`).
   */
  jsonRpcCode: number;
  httpStatus: number;
  closeCode: number | null;
  retryable: boolean;
}

/** One row per binding error: the single source for WS frames, HTTP responses and close codes. */
export const ERROR_TABLE: Readonly<Record<BindingErrorCode, ErrorSpec>> = {
  TASK_NOT_FOUND: {
    a2aType: 'TaskNotFound',
    jsonRpcCode: -32001,
    httpStatus: 404,
    closeCode: CloseCode.NOT_FOUND,
    retryable: false,
  },
  TASK_NOT_CANCELABLE: {
    a2aType: 'TaskNotCancelable',
    jsonRpcCode: -32002,
    httpStatus: 409,
    closeCode: null,
    retryable: false,
  },
  INVALID_REQUEST: {
    a2aType: 'InvalidRequest',
    jsonRpcCode: -32600,
    httpStatus: 400,
    closeCode: CloseCode.PROTOCOL_VIOLATION,
    retryable: false,
  },
  UNSUPPORTED_OPERATION: {
    a2aType: 'UnsupportedOperation',
    jsonRpcCode: -32004,
    httpStatus: 400,
    closeCode: null,
    retryable: false,
  },
  UNAUTHENTICATED: {
    a2aType: 'Unauthenticated',
    jsonRpcCode: -32600,
    httpStatus: 401,
    closeCode: CloseCode.UNAUTHENTICATED,
    retryable: false,
  },
  PERMISSION_DENIED: {
    a2aType: 'PermissionDenied',
    jsonRpcCode: -32600,
    httpStatus: 403,
    closeCode: CloseCode.FORBIDDEN,
    retryable: false,
  },
  RATE_LIMITED: {
    a2aType: 'RateLimited',
    jsonRpcCode: -32600,
    httpStatus: 429,
    closeCode: CloseCode.RATE_LIMITED,
    retryable: true,
  },
  INTERNAL: {
    a2aType: 'Internal',
    jsonRpcCode: -32603,
    httpStatus: 500,
    closeCode: CloseCode.SERVER_ERROR,
    retryable: true,
  },
  REPLAY_OUT_OF_RANGE: {
    a2aType: 'ReplayOutOfRange',
    jsonRpcCode: -32010,
    httpStatus: 416,
    closeCode: null,
    retryable: false,
  },
};

export const BINDING_ERROR_CODES = Object.keys(ERROR_TABLE) as BindingErrorCode[];

export interface ErrorPayload {
  code: BindingErrorCode;
  message: string;
  a2a_error: A2AError;
  retryable: boolean;
}

export function a2aError(code: BindingErrorCode, message: string, data?: Record<string, unknown>): A2AError {
  const spec = ERROR_TABLE[code];
  return data
    ? { type: spec.a2aType, code: spec.jsonRpcCode, message, data }
    : { type: spec.a2aType, code: spec.jsonRpcCode, message };
}

export function errorPayload(code: BindingErrorCode, message: string, data?: Record<string, unknown>): ErrorPayload {
  return { code, message, a2a_error: a2aError(code, message, data), retryable: ERROR_TABLE[code].retryable };
}

/** An error that knows which binding code it maps to; thrown by services, rendered by transports. */
export class BindingError extends Error {
  constructor(
    readonly code: BindingErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'BindingError';
  }
  get httpStatus(): number {
    return ERROR_TABLE[this.code].httpStatus;
  }
  toPayload(): ErrorPayload {
    return errorPayload(this.code, this.message, this.data);
  }
}

export function isBindingError(e: unknown): e is BindingError {
  return e instanceof BindingError;
}
