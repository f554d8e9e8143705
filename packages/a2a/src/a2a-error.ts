import { isDependencyUnavailable } from '@pty-ws/ports';
import { BindingError, isBindingError, type A2AError, type BindingErrorCode } from '@pty-ws/protocol';

/** A2A error names the control-plane bindings produce. */
export type A2aErrorName =
  | 'TaskNotFound'
  | 'TaskNotCancelable'
  | 'PushNotificationNotSupported'
  | 'UnsupportedOperation'
  | 'ContentTypeNotSupported'
  | 'InvalidAgentResponse'
  | 'ExtendedAgentCardNotConfigured'
  | 'UnsupportedExtension'
  | 'VersionNotSupported'
  | 'InvalidParams'
  | 'InvalidRequest'
  | 'MethodNotFound'
  | 'ParseError'
  | 'Unauthenticated'
  | 'PermissionDenied'
  | 'RateLimited'
  | 'Unavailable'
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
 * One row per error: the single source for JSON-RPC codes, HTTP statuses, gRPC statuses and the
 * google.rpc.ErrorInfo reason. JSON-RPC codes are only the ones the specs define: A2A v1.0's
 * -32001..-32009 (§5.4) and JSON-RPC 2.0's -32600..-32603 and -32700. The refusals pty-ws adds
 * (authentication, authorization, throttling) have no code of their own in either spec; they are
 * -32600 (the request as sent is not one this server accepts), told apart by their ErrorInfo
 * reason (domain `pty-ws`) and their HTTP status (401, 403, 429), which the JSON-RPC binding
 * sends with them. A store or the log being unreachable is JSON-RPC's internal error (-32603), told
 * apart by reason `UNAVAILABLE` and HTTP 503 with Retry-After. docs/a2a.md documents the table.
 */
export const A2A_ERROR_SPECS: Readonly<Record<A2aErrorName, A2aErrorSpec>> = {
  TaskNotFound: spec(-32001, 404, 5, 'NOT_FOUND', 'TASK_NOT_FOUND'),
  TaskNotCancelable: spec(-32002, 409, 9, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'),
  PushNotificationNotSupported: spec(-32003, 400, 12, 'UNIMPLEMENTED', 'PUSH_NOTIFICATION_NOT_SUPPORTED'),
  UnsupportedOperation: spec(-32004, 400, 12, 'UNIMPLEMENTED', 'UNSUPPORTED_OPERATION'),
  ContentTypeNotSupported: spec(-32005, 415, 3, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED'),
  InvalidAgentResponse: spec(-32006, 502, 13, 'INTERNAL', 'INVALID_AGENT_RESPONSE'),
  ExtendedAgentCardNotConfigured: spec(-32007, 400, 9, 'FAILED_PRECONDITION', 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'),
  // The pty-extensions spec (§3) names this rejection UnsupportedExtension; A2A v1.0's nearest
  // error is ExtensionSupportRequired (-32008), whose code and reason clients already know.
  UnsupportedExtension: spec(-32008, 400, 9, 'FAILED_PRECONDITION', 'EXTENSION_SUPPORT_REQUIRED'),
  VersionNotSupported: spec(-32009, 400, 12, 'UNIMPLEMENTED', 'VERSION_NOT_SUPPORTED'),
  InvalidParams: spec(-32602, 400, 3, 'INVALID_ARGUMENT', 'INVALID_PARAMS'),
  InvalidRequest: spec(-32600, 400, 3, 'INVALID_ARGUMENT', 'INVALID_REQUEST'),
  MethodNotFound: spec(-32601, 404, 12, 'NOT_FOUND', 'METHOD_NOT_FOUND'),
  ParseError: spec(-32700, 400, 3, 'INVALID_ARGUMENT', 'PARSE_ERROR'),
  Unauthenticated: spec(-32600, 401, 16, 'UNAUTHENTICATED', 'UNAUTHENTICATED'),
  PermissionDenied: spec(-32600, 403, 7, 'PERMISSION_DENIED', 'PERMISSION_DENIED'),
  RateLimited: spec(-32600, 429, 8, 'RESOURCE_EXHAUSTED', 'RATE_LIMITED'),
  Unavailable: spec(-32603, 503, 14, 'UNAVAILABLE', 'UNAVAILABLE'),
  Internal: spec(-32603, 500, 13, 'INTERNAL', 'INTERNAL'),
};

/** The ErrorInfo domain of reasons A2A v1.0 defines (its -320xx errors); pty-ws's own use `pty-ws`. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
export const PTYWS_ERROR_DOMAIN = 'pty-ws';

function spec(jsonRpcCode: number, httpStatus: number, grpcStatus: number, status: string, reason: string) {
  return { jsonRpcCode, httpStatus, grpcStatus, status, reason };
}

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

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

/** What an A2A error means on the pty-ws/v1 binding: the inverse of FROM_BINDING, and nearest codes. */
const TO_BINDING: Readonly<Record<A2aErrorName, BindingErrorCode>> = {
  TaskNotFound: 'TASK_NOT_FOUND',
  TaskNotCancelable: 'TASK_NOT_CANCELABLE',
  PushNotificationNotSupported: 'UNSUPPORTED_OPERATION',
  UnsupportedOperation: 'UNSUPPORTED_OPERATION',
  ContentTypeNotSupported: 'INVALID_REQUEST',
  InvalidAgentResponse: 'INTERNAL',
  ExtendedAgentCardNotConfigured: 'UNSUPPORTED_OPERATION',
  UnsupportedExtension: 'UNSUPPORTED_OPERATION',
  VersionNotSupported: 'UNSUPPORTED_OPERATION',
  InvalidParams: 'INVALID_REQUEST',
  InvalidRequest: 'INVALID_REQUEST',
  MethodNotFound: 'UNSUPPORTED_OPERATION',
  ParseError: 'INVALID_REQUEST',
  Unauthenticated: 'UNAUTHENTICATED',
  PermissionDenied: 'PERMISSION_DENIED',
  RateLimited: 'RATE_LIMITED',
  Unavailable: 'INTERNAL',
  Internal: 'INTERNAL',
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
  /** Seconds to wait before retrying (HTTP Retry-After): throttling and outages say when to come back. */
  get retryAfterS(): number | undefined {
    const s = this.type === 'RateLimited' || this.type === 'Unavailable' ? this.data?.['retry_after_s'] : undefined;
    return typeof s === 'number' ? s : undefined;
  }
  /** google.rpc.Code name (REST `error.status`). */
  get status(): string {
    return A2A_ERROR_SPECS[this.type].status;
  }
  /** google.rpc.ErrorInfo reason. */
  get reason(): string {
    return A2A_ERROR_SPECS[this.type].reason;
  }
  /** google.rpc.ErrorInfo domain: A2A's for the errors A2A defines (codes -32001..-32099). */
  get domain(): string {
    const code = this.jsonRpcCode;
    return code <= -32001 && code >= -32099 ? A2A_ERROR_DOMAIN : PTYWS_ERROR_DOMAIN;
  }

  /**
   * The google.rpc.ErrorInfo detail (ProtoJSON, as an element of `google.protobuf.Any[]`): REST
   * `error.details[]` and JSON-RPC `error.data[]` alike. Metadata values are strings (a
   * `map<string, string>`); the pty-ws error name rides along as `error`.
   */
  errorInfo(): { '@type': string; reason: string; domain: string; metadata: Record<string, string> } {
    const metadata: Record<string, string> = { error: this.type };
    for (const [k, v] of Object.entries(this.data ?? {})) metadata[k] = typeof v === 'string' ? v : JSON.stringify(v);
    return { '@type': ERROR_INFO_TYPE, reason: this.reason, domain: this.domain, metadata };
  }

  /** The canonical error object (`a2a_error` on the WebSocket binding). */
  toA2AError(): A2AError {
    const base = { type: this.type, code: this.jsonRpcCode, message: this.message };
    return this.data ? { ...base, data: this.data } : base;
  }

  /** The same failure as a pty-ws/v1 Error frame would carry it (the WebSocket binding's task verbs). */
  toBindingError(): BindingError {
    return new BindingError(TO_BINDING[this.type], this.message, this.data);
  }

  /** Any thrown value as an A2aError: BindingErrors keep their meaning (an outage: Unavailable), the rest is Internal. */
  static from(err: unknown): A2aError {
    if (err instanceof A2aError) return err;
    if (isDependencyUnavailable(err)) return new A2aError('Unavailable', err.message, err.data);
    if (isBindingError(err)) return new A2aError(FROM_BINDING[err.code], err.message, err.data);
    return new A2aError('Internal', 'internal error while handling the request');
  }
}
