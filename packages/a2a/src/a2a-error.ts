import { isBindingError, type A2AError, type BindingErrorCode } from '@pty-ws/protocol';

/** A2A error names the control-plane bindings produce. */
export type A2aErrorName =
  | 'TaskNotFound'
  | 'TaskNotCancelable'
  | 'PushNotificationNotSupported'
  | 'UnsupportedOperation'
  | 'ContentTypeNotSupported'
  | 'UnsupportedExtension'
  | 'InvalidParams'
  | 'InvalidRequest'
  | 'MethodNotFound'
  | 'ParseError'
  | 'Unauthenticated'
  | 'PermissionDenied'
  | 'RateLimited'
  | 'Internal';

interface A2aErrorSpec {
  /** JSON-RPC 2.0 error code (A2A v1.0 §5.4 codes where A2A defines one). */
  jsonRpcCode: number;
  httpStatus: number;
  /** gRPC status code (numeric, `@grpc/grpc-js` `status` enum). */
  grpcStatus: number;
  /** google.rpc.Status name, used in the REST error body (AIP-193) and as ErrorInfo reason. */
  status: string;
  reason: string;
}

/**
 * One row per error: the single source for JSON-RPC codes, HTTP statuses and gRPC statuses.
 * JSON-RPC codes are A2A v1.0's (-32001..-32009) and JSON-RPC's own (-326xx, -32700). A2A defines
 * no code for authentication, authorization or throttling (HTTP statuses carry them); the codes
 * here sit in the implementation-defined range -32000..-32099 clear of A2A's, so the official
 * client cannot mistake them for ExtendedAgentCardNotConfigured (-32007) or
 * ExtensionSupportRequired (-32008) as it would the pty-ws/v1 frame codes (ERROR_TABLE).
 * `reason` is the google.rpc.ErrorInfo reason of REST error bodies.
 */
export const A2A_ERROR_SPECS: Readonly<Record<A2aErrorName, A2aErrorSpec>> = {
  TaskNotFound: spec(-32001, 404, 5, 'NOT_FOUND', 'TASK_NOT_FOUND'),
  TaskNotCancelable: spec(-32002, 409, 9, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'),
  PushNotificationNotSupported: spec(-32003, 400, 12, 'UNIMPLEMENTED', 'PUSH_NOTIFICATION_NOT_SUPPORTED'),
  UnsupportedOperation: spec(-32004, 400, 12, 'UNIMPLEMENTED', 'UNSUPPORTED_OPERATION'),
  ContentTypeNotSupported: spec(-32005, 415, 3, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED'),
  // The pty-extensions spec (§3) names this rejection UnsupportedExtension; A2A v1.0's nearest
  // error is ExtensionSupportRequired (-32008), whose code and reason clients already know.
  UnsupportedExtension: spec(-32008, 400, 9, 'FAILED_PRECONDITION', 'EXTENSION_SUPPORT_REQUIRED'),
  InvalidParams: spec(-32602, 400, 3, 'INVALID_ARGUMENT', 'INVALID_PARAMS'),
  InvalidRequest: spec(-32600, 400, 3, 'INVALID_ARGUMENT', 'INVALID_REQUEST'),
  MethodNotFound: spec(-32601, 404, 12, 'NOT_FOUND', 'METHOD_NOT_FOUND'),
  ParseError: spec(-32700, 400, 3, 'INVALID_ARGUMENT', 'PARSE_ERROR'),
  Unauthenticated: spec(-32040, 401, 16, 'UNAUTHENTICATED', 'UNAUTHENTICATED'),
  PermissionDenied: spec(-32043, 403, 7, 'PERMISSION_DENIED', 'PERMISSION_DENIED'),
  RateLimited: spec(-32029, 429, 8, 'RESOURCE_EXHAUSTED', 'RATE_LIMITED'),
  Internal: spec(-32603, 500, 13, 'INTERNAL', 'INTERNAL'),
};

function spec(jsonRpcCode: number, httpStatus: number, grpcStatus: number, status: string, reason: string) {
  return { jsonRpcCode, httpStatus, grpcStatus, status, reason };
}

/** What a pty-ws BindingError means on the control-plane bindings. */
const FROM_BINDING: Readonly<Record<BindingErrorCode, A2aErrorName>> = {
  TASK_NOT_FOUND: 'TaskNotFound',
  TASK_NOT_CANCELABLE: 'TaskNotCancelable',
  // The core raises INVALID_REQUEST for bad fields of a well-formed request: params, on JSON-RPC.
  INVALID_REQUEST: 'InvalidParams',
  UNSUPPORTED_OPERATION: 'UnsupportedOperation',
  UNAUTHENTICATED: 'Unauthenticated',
  PERMISSION_DENIED: 'PermissionDenied',
  RATE_LIMITED: 'RateLimited',
  INTERNAL: 'Internal',
  REPLAY_OUT_OF_RANGE: 'InvalidParams',
};

/** A failed A2A operation; bindings render it with the maps above (never by parsing messages). */
export class A2aError extends Error {
  constructor(
    readonly type: A2aErrorName,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'A2aError';
  }

  get jsonRpcCode(): number {
    return A2A_ERROR_SPECS[this.type].jsonRpcCode;
  }
  get httpStatus(): number {
    return A2A_ERROR_SPECS[this.type].httpStatus;
  }
  get grpcStatus(): number {
    return A2A_ERROR_SPECS[this.type].grpcStatus;
  }
  /** google.rpc.Code name (REST `error.status`). */
  get status(): string {
    return A2A_ERROR_SPECS[this.type].status;
  }
  /** google.rpc.ErrorInfo reason. */
  get reason(): string {
    return A2A_ERROR_SPECS[this.type].reason;
  }

  /** The canonical error object (`a2a_error` on the WebSocket binding). */
  toA2AError(): A2AError {
    const base = { type: this.type, code: this.jsonRpcCode, message: this.message };
    return this.data ? { ...base, data: this.data } : base;
  }

  /** Any thrown value as an A2aError: BindingErrors keep their meaning, the rest is Internal. */
  static from(err: unknown): A2aError {
    if (err instanceof A2aError) return err;
    if (isBindingError(err)) return new A2aError(FROM_BINDING[err.code], err.message, err.data);
    return new A2aError('Internal', 'internal error while handling the request');
  }
}
